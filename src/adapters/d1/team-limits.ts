// TeamLimitStore over D1 (team_limit rows, one per team and route class; admin changes batched with their audit row).
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { TeamLimitRow, TeamLimitStore } from "../../ports/team-limits";
import { auditInsert } from "./audit-log";
import { batchAll } from "./batch";
import { teamLimits } from "./schema";

export function createD1TeamLimitStore(db: DrizzleD1Database): TeamLimitStore {
  const upsert = (teamId: string, row: TeamLimitRow, now: number) => {
    const values = { teamId, ...row, updatedAt: now };
    return db
      .insert(teamLimits)
      .values(values)
      .onConflictDoUpdate({ target: [teamLimits.teamId, teamLimits.routeClass], set: values });
  };
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
      await upsert(teamId, row, now);
    },
    async putAll(teamId, rows, now, audit) {
      await batchAll(db, [...rows.map((r) => upsert(teamId, r, now)), auditInsert(db, audit)]);
    },
  };
}
