// Merges for ON CONFLICT … DO UPDATE (drizzle `set` values): how a stored column and the conflicting INSERT's value combine.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** `excluded.<column>`: the value the conflicting INSERT brought (named from the column, never spelled by hand) */
export const excluded = (column: SQLiteColumn): SQL => sql.raw(`excluded."${column.name}"`);

/** the stored value unless it is NULL (the first value seen wins) */
export const storedElseIncoming = (column: SQLiteColumn): SQL => sql`COALESCE(${column}, ${excluded(column)})`;

/** the incoming value unless it is NULL (the newest known value wins) */
export const incomingElseStored = (column: SQLiteColumn): SQL => sql`COALESCE(${excluded(column)}, ${column})`;

/** the larger of the two (flags and high-water marks that only grow) */
export const larger = (column: SQLiteColumn): SQL => sql`MAX(${column}, ${excluded(column)})`;

/** the sum of the two (counters) */
export const added = (column: SQLiteColumn): SQL => sql`${column} + ${excluded(column)}`;
