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
