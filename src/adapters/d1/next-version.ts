// The next version number of a team's versioned rows, computed inside the INSERT itself so concurrent writers never collide.
import { sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * `(SELECT coalesce(max(version), 0) + 1 … WHERE team_id = ?)` as an insert value: SQLite evaluates it in the insert's
 * own write, so fifty concurrent proposals get fifty consecutive versions instead of primary-key conflicts.
 */
export function nextVersion(table: SQLiteTable & { version: SQLiteColumn; teamId: SQLiteColumn }, teamId: string) {
  return sql<number>`(select coalesce(max(${table.version}), 0) + 1 from ${table} where ${table.teamId} = ${teamId})`;
}
