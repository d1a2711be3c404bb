// TeamLimitStore over D1 (team_limit rows, one per team and route class).
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { TeamLimitStore } from "../../ports/team-limits";
import { teamLimits } from "./schema";

export function createD1TeamLimitStore(db: DrizzleD1Database): TeamLimitStore {
  return {
    async forTeam(teamId) {
      const rows = await db.select().from(teamLimits).where(eq(teamLimits.teamId, teamId));
      return rows.map((r) => ({
        routeClass: r.routeClass,
        perTeam: r.perTeam,
        perSubject: r.perSubject,
        periodS: r.periodS,
      }));
    },
    async put(teamId, row, now) {
      const values = { teamId, ...row, updatedAt: now };
      await db
        .insert(teamLimits)
        .values(values)
        .onConflictDoUpdate({ target: [teamLimits.teamId, teamLimits.routeClass], set: values });
    },
  };
}
