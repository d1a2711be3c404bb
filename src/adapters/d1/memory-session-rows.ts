// The session rows every memory home keeps in D1: session_event.v1 episodes and activations (D1 MemoryStore calls).
import { and, desc, eq, inArray } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { memActivations, sessionEvents } from "../../features/memory/store/tables";
import type { MemoryStore, SessionEventRow } from "../../ports/memory-store";

const toEvent = (r: typeof sessionEvents.$inferSelect): SessionEventRow => ({
  ...r,
  outcome: r.outcome as SessionEventRow["outcome"],
});

/** Session episodes and activations (D1 whatever the memory home). */
export function sessionRows(
  db: DrizzleD1Database,
): Pick<
  MemoryStore,
  "insertSessionEvent" | "sessionEventsForFingerprints" | "recentSessionEvents" | "recordActivation"
> {
  return {
    async insertSessionEvent(e) {
      await db.insert(sessionEvents).values(e);
    },

    async sessionEventsForFingerprints(teamId, fingerprints, limit) {
      const where = fingerprints
        ? and(eq(sessionEvents.teamId, teamId), inArray(sessionEvents.needFingerprint, fingerprints.slice(0, 90)))
        : eq(sessionEvents.teamId, teamId);
      // newest `limit`, returned oldest first
      const rows = await db
        .select()
        .from(sessionEvents)
        .where(where)
        .orderBy(desc(sessionEvents.createdAt), desc(sessionEvents.id))
        .limit(limit);
      return rows.reverse().map(toEvent);
    },

    async recentSessionEvents(teamId, filter, limit) {
      const rows = await db
        .select()
        .from(sessionEvents)
        .where(
          and(
            eq(sessionEvents.teamId, teamId),
            filter.sessionKind ? eq(sessionEvents.sessionKind, filter.sessionKind) : undefined,
            filter.needFingerprint ? eq(sessionEvents.needFingerprint, filter.needFingerprint) : undefined,
          ),
        )
        .orderBy(desc(sessionEvents.createdAt), desc(sessionEvents.id))
        .limit(limit);
      return rows.map(toEvent);
    },

    async recordActivation(a) {
      await db.insert(memActivations).values(a);
    },
  };
}
