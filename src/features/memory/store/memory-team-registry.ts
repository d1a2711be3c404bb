// MemoryTeamRegistry over D1 (memory_team): which teams hold memory in their team object, and when each was swept.
import { asc, eq, lt } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { MemoryTeamRegistry } from "../../../ports/memory-home";
import { memoryTeams } from "./tables";

/** Lists a team for the daily sweep (insert-or-ignore): the owner's statement, also run in the copy job's batch. */
export const registerTeamStatement = (db: DrizzleD1Database, teamId: string, now: number) =>
  db.insert(memoryTeams).values({ teamId, registeredAt: now }).onConflictDoNothing();

export function createD1MemoryTeamRegistry(db: DrizzleD1Database): MemoryTeamRegistry {
  return {
    async register(teamId, now) {
      await registerTeamStatement(db, teamId, now);
    },
    async due(sweptBefore, limit) {
      const rows = await db
        .select({ teamId: memoryTeams.teamId })
        .from(memoryTeams)
        .where(lt(memoryTeams.sweptAt, sweptBefore))
        .orderBy(asc(memoryTeams.sweptAt), asc(memoryTeams.teamId))
        .limit(limit);
      return rows.map((r) => r.teamId);
    },
    async markSwept(teamId, now) {
      await db.update(memoryTeams).set({ sweptAt: now }).where(eq(memoryTeams.teamId, teamId));
    },
  };
}
