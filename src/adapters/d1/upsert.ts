// Merges for ON CONFLICT … DO UPDATE (drizzle `set` values): how a stored column and the conflicting INSERT's value combine.
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/** `excluded.<column>`: the value the conflicting INSERT brought (named from the column, never spelled by hand) */
export const excluded = (column: SQLiteColumn): SQL => sql.raw(`excluded."${column.name}"`);

/** a `set` taking the conflicting INSERT's value for each named column of the table */
export function incoming<T extends SQLiteTable, K extends keyof T["_"]["columns"] & string>(
  table: T,
  keys: readonly K[],
): Record<K, SQL> {
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  return Object.fromEntries(keys.map((key) => [key, excluded(columns[key] as SQLiteColumn)])) as Record<K, SQL>;
}

/** the stored value unless it is NULL (the first value seen wins) */
export const storedElseIncoming = (column: SQLiteColumn): SQL => sql`COALESCE(${column}, ${excluded(column)})`;

/** the incoming value unless it is NULL (the newest known value wins) */
export const incomingElseStored = (column: SQLiteColumn): SQL => sql`COALESCE(${excluded(column)}, ${column})`;

/** the larger of the two (flags and high-water marks that only grow) */
export const larger = (column: SQLiteColumn): SQL => sql`MAX(${column}, ${excluded(column)})`;

/** the sum of the two (counters) */
export const added = (column: SQLiteColumn): SQL => sql`${column} + ${excluded(column)}`;
