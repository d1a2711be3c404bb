// MemoryMaintenance over D1 (drizzle, typed rows): paged importance decay, tier moves and TTL expiry. It reads
// mem_doc and mem_actor_importance and writes them only through their owner's statements (memory-store.ts).

import { and, asc, eq, gt, isNotNull, isNull, like, lte, max, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { memActorImportance, memDocs } from "../../features/memory/store/tables";
import { decayed, halfLifeOf } from "../../lib/memory-decay";
import { DAY_MS } from "../../lib/time";
import type { LeftIndex, MemoryMaintenance, TierRules } from "../../ports/memory-maintenance";
import { runInBatches } from "./batch";
import { coolWarmStatement, decayScoreStatements, deleteDocsStatements, moveTierStatement } from "./memory-store";

const PAGE = 2000;

function addLeft(left: Map<string, string[]>, teamId: string, id: string) {
  const ids = left.get(teamId) ?? [];
  ids.push(id);
  left.set(teamId, ids);
}
const toLeftIndex = (left: Map<string, string[]>): LeftIndex =>
  [...left.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([teamId, ids]) => ({ teamId, ids }));

export function createD1MemoryMaintenance(db: DrizzleD1Database): MemoryMaintenance {
  /** Importance decays at most once a day per row; a use-boost racing the sweep wins (guard on last_update_at). */
  async function decayImportance(now: number, rules: TierRules): Promise<number> {
    let after = { doc: "", actor: "" };
    let decayedRows = 0;
    const a = memActorImportance;
    for (;;) {
      const results = await db
        .select({
          docId: a.docId,
          actorKey: a.actorKey,
          rawScore: a.rawScore,
          lastUpdateAt: a.lastUpdateAt,
          class: memDocs.class,
        })
        .from(a)
        .innerJoin(memDocs, eq(memDocs.id, a.docId))
        .where(
          and(
            eq(memDocs.pinned, false),
            lte(a.lastUpdateAt, now - DAY_MS),
            // keyset paging on the composite key: a row-value comparison, which the builder has no operator for
            sql`(${a.docId}, ${a.actorKey}) > (${after.doc}, ${after.actor})`,
          ),
        )
        .orderBy(asc(a.docId), asc(a.actorKey))
        .limit(PAGE);
      if (results.length === 0) break;
      const updates = results.flatMap((r) => {
        const hl = halfLifeOf(rules, r.class);
        if (hl === null || hl === undefined) return [];
        const rawScore = decayed(r.rawScore, hl, now - r.lastUpdateAt);
        return [{ docId: r.docId, actorKey: r.actorKey, rawScore, seenAt: r.lastUpdateAt }];
      });
      decayedRows += await runInBatches(db, decayScoreStatements(db, updates, now));
      const last = results[results.length - 1] as { docId: string; actorKey: string };
      after = { doc: last.docId, actor: last.actorKey };
      if (results.length < PAGE) break;
    }
    return decayedRows;
  }

  /** hot → warm: importance (the highest across actors; the base, decayed since creation, when none) below the bar and idle long enough. */
  async function hotToWarm(now: number, rules: TierRules, left: Map<string, string[]>): Promise<number> {
    let after = "";
    let moved = 0;
    const idleBefore = now - rules.warmIdleMs;
    const lastActive = sql<number>`coalesce(max(${memActorImportance.lastUsedAt}), ${memDocs.createdAt})`;
    for (;;) {
      const results = await db
        .select({
          id: memDocs.id,
          teamId: memDocs.teamId,
          class: memDocs.class,
          createdAt: memDocs.createdAt,
          importance: max(memActorImportance.rawScore),
        })
        .from(memDocs)
        .leftJoin(memActorImportance, eq(memActorImportance.docId, memDocs.id))
        .where(
          and(
            eq(memDocs.tier, "hot"),
            eq(memDocs.pinned, false),
            lte(memDocs.createdAt, idleBefore),
            gt(memDocs.id, after),
          ),
        )
        .groupBy(memDocs.id)
        .having(lte(lastActive, idleBefore))
        .orderBy(asc(memDocs.id))
        .limit(PAGE);
      if (results.length === 0) break;
      const warm = results.filter((r) => {
        const hl = halfLifeOf(rules, r.class);
        if (hl === null || hl === undefined) return false; // rigid memory never leaves hot
        const importance = r.importance ?? decayed(rules.baseImportance, hl, now - r.createdAt);
        return importance < rules.warmImportanceBelow;
      });
      if (warm.length > 0) {
        const r = await moveTierStatement(
          db,
          warm.map((w) => w.id),
          "warm",
          now,
          "hot",
        ).run();
        moved += r.meta.changes ?? 0;
      }
      for (const r of warm) addLeft(left, r.teamId, r.id);
      after = (results[results.length - 1] as { id: string }).id;
      if (results.length < PAGE) break;
    }
    return moved;
  }

  /** deletes the memories with their importance rows and use events, in one batch; the memories deleted */
  async function deleteDocs(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const [, , docs] = await db.batch(deleteDocsStatements(db, ids));
    return docs.meta.changes ?? 0;
  }

  /** Pages through the ids a predicate selects, deleting each page (and its importance rows). */
  async function deleteWhere(where: SQL | undefined, left: Map<string, string[]> | null): Promise<number> {
    let deleted = 0;
    for (;;) {
      const results = await db
        .select({ id: memDocs.id, teamId: memDocs.teamId, tier: memDocs.tier })
        .from(memDocs)
        .where(where)
        .orderBy(asc(memDocs.id))
        .limit(PAGE);
      if (results.length === 0) break;
      const n = await deleteDocs(results.map((r) => r.id));
      deleted += n;
      if (left) for (const r of results) if (r.tier === "hot") addLeft(left, r.teamId, r.id);
      if (results.length < PAGE || n === 0) break;
    }
    return deleted;
  }

  return {
    async decayAndTier(now, rules) {
      const left = new Map<string, string[]>();
      const decayedRows = await decayImportance(now, rules);
      const toWarm = await hotToWarm(now, rules, left);
      const cold = await coolWarmStatement(db, now - rules.coldAfterWarmMs, now).run();
      const deleted =
        rules.deleteColdEpisodicAfterMs === null
          ? 0
          : await deleteWhere(
              and(
                eq(memDocs.tier, "cold"),
                eq(memDocs.pinned, false),
                eq(memDocs.class, "episodic"),
                lte(memDocs.createdAt, now - rules.deleteColdEpisodicAfterMs),
              ),
              null,
            );
      return { decayed: decayedRows, toWarm, toCold: cold.meta.changes ?? 0, deleted, leftIndex: toLeftIndex(left) };
    },

    async expireTaskNamespaces(now, rules) {
      const left = new Map<string, string[]>();
      const deleted = await deleteWhere(
        or(
          and(isNotNull(memDocs.expiresAt), lte(memDocs.expiresAt, now)),
          and(
            isNull(memDocs.expiresAt),
            eq(memDocs.pinned, false),
            like(memDocs.namespace, "team/%/task/%"),
            lte(memDocs.createdAt, now - rules.taskTtlMs),
          ),
        ),
        left,
      );
      return { deleted, leftIndex: toLeftIndex(left) };
    },
  };
}
