// camelKeys: a snake_case wire/record row as the camelCase object a drizzle table's insert takes.

/** "team_id" → "teamId" at the type level */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** the row with each snake_case key renamed to camelCase; values untouched */
export type CamelKeys<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

/** "team_id" → "teamId" */
export function camelCase<S extends string>(key: S): CamelCase<S> {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) as CamelCase<S>;
}

/**
 * Renames a row's snake_case keys to camelCase, so a record row built for the wire can be inserted with drizzle
 * without spelling each column twice (the table's insert type checks that every column is there).
 */
export function camelKeys<T extends Record<string, unknown>>(row: T): CamelKeys<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[camelCase(key)] = value;
  return out as CamelKeys<T>;
}
