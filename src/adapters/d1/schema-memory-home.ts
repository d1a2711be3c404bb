// D1 tables of the memory home (issue 27): the teams whose memory rows live in their team object.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One row per team that has written memory to its team object (insert-or-ignore on its first write per isolate):
 * the list the daily memory sweep walks, least recently swept first.
 */
export const memoryTeams = sqliteTable(
  "memory_team",
  {
    teamId: text("team_id").primaryKey(),
    registeredAt: integer("registered_at").notNull(),
    /** the last sweep of the team's object (0: never swept) */
    sweptAt: integer("swept_at").notNull().default(0),
  },
  (t) => [index("memory_team_swept").on(t.sweptAt, t.teamId)],
);

/**
 * The copy of one team's memory rows from D1's `mem_*` tables into its team object (POST /v1/admin/memory/migrate):
 * the last doc id copied, how many docs were copied, and once the copy is verified its hash and the switch time. While
 * `switched_at` is null and MEMORY_ROWS is "d1-until-migrated", the team's memory is still read and written in D1.
 */
export const memoryMigrations = sqliteTable("memory_migration", {
  teamId: text("team_id").primaryKey(),
  /** the greatest mem_doc id copied ("" before the first page) */
  cursor: text("cursor").notNull().default(""),
  copied: integer("copied").notNull().default(0),
  /** SHA-256 over the sorted (id, content_hash, tier, importance) rows, equal on both sides */
  verifiedHash: text("verified_hash"),
  switchedAt: integer("switched_at"),
});
