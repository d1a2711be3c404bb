// The copy job's D1 side: a team's mem_* rows by page, their digest, and the memory_migration progress row.
import { and, asc, count, eq, gt, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { toDoc } from "../../../adapters/d1/memory-store";
import { memoryRowsHash } from "../../../lib/memory-rows-hash";
import type { MemoryMigrationSource } from "../../../ports/memory-migration";
import { registerTeamStatement } from "./memory-team-registry";
import { memActorImportance, memDocs, memoryMigrations, memUseEvents } from "./tables";

/** The next page of a team's D1 docs after `afterId`, by id, with their importance rows and use events. */
async function pageOf(db: DrizzleD1Database, teamId: string, afterId: string, limit: number) {
  const docs = await db
    .select()
    .from(memDocs)
    .where(and(eq(memDocs.teamId, teamId), gt(memDocs.id, afterId)))
    .orderBy(asc(memDocs.id))
    .limit(limit);
  const ids = docs.map((d) => d.id);
  if (!ids.length) return { docs: [], importance: [], uses: [] };
  // the ids travel as one JSON parameter: a page of 500 ids is one bound parameter (D1 allows 100 a statement)
  const idList = sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  const [importance, uses] = await Promise.all([
    db.select().from(memActorImportance).where(sql`${memActorImportance.docId} IN ${idList}`),
    db.select().from(memUseEvents).where(sql`${memUseEvents.docId} IN ${idList}`),
  ]);
  return { docs: docs.map(toDoc), importance, uses };
}

export function createD1MemoryMigrationSource(db: DrizzleD1Database): MemoryMigrationSource {
  const ensure = (teamId: string) => db.insert(memoryMigrations).values({ teamId }).onConflictDoNothing();
  return {
    async state(teamId) {
      const [row] = await db.select().from(memoryMigrations).where(eq(memoryMigrations.teamId, teamId));
      return row ?? { cursor: "", copied: 0, verifiedHash: null, switchedAt: null };
    },
    page: (teamId, afterId, limit) => pageOf(db, teamId, afterId, limit),
    async count(teamId) {
      const [row] = await db.select({ n: count() }).from(memDocs).where(eq(memDocs.teamId, teamId));
      return row?.n ?? 0;
    },
    async digest(teamId) {
      const rows = await db
        .select({
          id: memDocs.id,
          contentHash: memDocs.contentHash,
          tier: memDocs.tier,
          importance: memDocs.importance,
        })
        .from(memDocs)
        .where(eq(memDocs.teamId, teamId));
      return { count: rows.length, hash: await memoryRowsHash(rows) };
    },
    async advance(teamId, cursor, copied) {
      await db.batch([
        ensure(teamId),
        db
          .update(memoryMigrations)
          .set({
            cursor: sql`max(${memoryMigrations.cursor}, ${cursor})`,
            copied: sql`${memoryMigrations.copied} + ${copied}`,
          })
          .where(eq(memoryMigrations.teamId, teamId)),
      ]);
    },
    async markSwitched(teamId, verifiedHash, now) {
      // listed for the daily sweep at once: a switched team that never writes again still has its rows swept
      await db.batch([
        ensure(teamId),
        registerTeamStatement(db, teamId, now),
        db.update(memoryMigrations).set({ verifiedHash, switchedAt: now }).where(eq(memoryMigrations.teamId, teamId)),
      ]);
    },
    async restart(teamId) {
      await db.update(memoryMigrations).set({ cursor: "" }).where(eq(memoryMigrations.teamId, teamId));
    },
  };
}
