// omitNull: drops null and undefined fields, so optional wire fields are absent rather than null.

export type NonNullFields<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

export const omitNull = <T extends Record<string, unknown>>(o: T): NonNullFields<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as NonNullFields<T>;
