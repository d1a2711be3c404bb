// TeamLimitStore over D1 (team_limit rows, one per team and route class; admin changes batched with their audit row;
// increases pending behind a hard gate in team_limit_request).
import { eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import { jsonBodyRequests } from "../../../adapters/d1/next-version";
import type { TeamLimitRow, TeamLimitStore } from "../../../ports/team-limits";
import { auditInsert } from "../../audit";
import { teamLimitRequests, teamLimits } from "./tables";

/** the statement that sets one route class's limits of a team (insert or replace) */
function upsertLimit(db: DrizzleD1Database, teamId: string, row: TeamLimitRow, now: number) {
  const values = { teamId, ...row, updatedAt: now };
  return db
    .insert(teamLimits)
    .values(values)
    .onConflictDoUpdate({ target: [teamLimits.teamId, teamLimits.routeClass], set: values });
}

/** a team's limits per route class, read and written directly */
function teamLimitRows(db: DrizzleD1Database): Pick<TeamLimitStore, "forTeam" | "put" | "putAll"> {
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
      await upsertLimit(db, teamId, row, now);
    },
    async putAll(teamId, rows, now, audit) {
      await batchAll(db, [...rows.map((r) => upsertLimit(db, teamId, r, now)), auditInsert(db, audit)]);
    },
  };
}

/** limit raises waiting behind a deploy gate, and their application */
function teamLimitRequestRows(db: DrizzleD1Database): Pick<TeamLimitStore, "addRequest" | "applyRequest"> {
  return jsonBodyRequests(db, teamLimitRequests, "limits", (rows: TeamLimitRow[], r) => [
    ...rows.map((row) => upsertLimit(db, r.teamId, row, r.now)),
    auditInsert(db, r.audit),
  ]);
}

export function createD1TeamLimitStore(db: DrizzleD1Database): TeamLimitStore {
  return { ...teamLimitRows(db), ...teamLimitRequestRows(db) };
}
