// The daily memory lifecycle inside one team object: importance decay, hot → warm → cold, deletes and TTL expiry.
import { decayed, halfLifeOf } from "../src/lib/memory-decay";
import { DAY_MS } from "../src/lib/time";
import type { TeamSweepCounts, TierRules } from "../src/ports/memory-maintenance";
import type { TeamMemoryRows } from "./team-memory-rows";

/**
 * One team's sweep, in one transaction (the object runs one call at a time, so no use-boost interleaves with it).
 * `leftIndex`: the memories that left the hot tier or were deleted while hot, which must leave the vector index.
 */
export function sweepTeamMemory(
  storage: DurableObjectStorage,
  rows: TeamMemoryRows,
  now: number,
  rules: TierRules,
): TeamSweepCounts {
  return storage.transactionSync(() => {
    const decayedRows = decayImportance(storage.sql, now, rules);
    const warm = hotToWarm(storage.sql, now, rules);
    const toCold = storage.sql
      .exec(
        `UPDATE mem_doc SET tier = 'cold', tier_changed_at = ? WHERE tier = 'warm' AND pinned = 0
         AND tier_changed_at <= ? RETURNING id`,
        now,
        now - rules.coldAfterWarmMs,
      )
      .toArray().length;
    const deleted =
      rules.deleteColdEpisodicAfterMs === null
        ? 0
        : rows.deleteRows(
            ids(
              storage.sql,
              `SELECT id, tier FROM mem_doc WHERE tier = 'cold' AND pinned = 0 AND class = 'episodic'
               AND created_at <= ?`,
              now - rules.deleteColdEpisodicAfterMs,
            ).map((r) => r.id),
          );
    const due = ids(
      storage.sql,
      `SELECT id, tier FROM mem_doc WHERE (expires_at IS NOT NULL AND expires_at <= ?1)
       OR (expires_at IS NULL AND pinned = 0 AND namespace LIKE 'team/%/task/%' AND created_at <= ?2)`,
      now,
      now - rules.taskTtlMs,
    );
    const expired = rows.deleteRows(due.map((r) => r.id));
    return {
      decayed: decayedRows,
      toWarm: warm.length,
      toCold,
      deleted,
      expired,
      tierLeftIndex: warm,
      expiryLeftIndex: due.filter((r) => r.tier === "hot").map((r) => r.id),
    };
  });
}

const ids = (sql: SqlStorage, query: string, ...params: unknown[]) =>
  sql.exec<{ id: string; tier: string }>(`${query} ORDER BY id`, ...params).toArray();

/** Importance decays at most once a day per row (half-life per class, never pinned); the rows decayed. */
function decayImportance(sql: SqlStorage, now: number, rules: TierRules): number {
  const due = sql
    .exec<{ doc_id: string; actor_key: string; raw_score: number; last_update_at: number; class: string }>(
      `SELECT a.doc_id, a.actor_key, a.raw_score, a.last_update_at, d.class FROM mem_actor_importance AS a
       JOIN mem_doc AS d ON d.id = a.doc_id WHERE d.pinned = 0 AND a.last_update_at <= ?`,
      now - DAY_MS,
    )
    .toArray();
  let n = 0;
  for (const r of due) {
    const hl = halfLifeOf(rules, r.class);
    if (hl === null || hl === undefined) continue;
    sql.exec(
      "UPDATE mem_actor_importance SET raw_score = ?, last_update_at = ? WHERE doc_id = ? AND actor_key = ?",
      decayed(r.raw_score, hl, now - r.last_update_at),
      now,
      r.doc_id,
      r.actor_key,
    );
    n++;
  }
  return n;
}

/** hot → warm: importance (the highest across actors; the base, decayed since creation, when none) below the bar and idle long enough */
function hotToWarm(sql: SqlStorage, now: number, rules: TierRules): string[] {
  const idleBefore = now - rules.warmIdleMs;
  const candidates = sql
    .exec<{ id: string; class: string; created_at: number; importance: number | null }>(
      `SELECT d.id, d.class, d.created_at, max(a.raw_score) AS importance FROM mem_doc AS d
       LEFT JOIN mem_actor_importance AS a ON a.doc_id = d.id
       WHERE d.tier = 'hot' AND d.pinned = 0 AND d.created_at <= ?1
       GROUP BY d.id HAVING coalesce(max(a.last_used_at), d.created_at) <= ?1 ORDER BY d.id`,
      idleBefore,
    )
    .toArray();
  const warm = candidates
    .filter((r) => {
      const hl = halfLifeOf(rules, r.class);
      if (hl === null || hl === undefined) return false; // rigid memory never leaves hot
      const importance = r.importance ?? decayed(rules.baseImportance, hl, now - r.created_at);
      return importance < rules.warmImportanceBelow;
    })
    .map((r) => r.id);
  if (warm.length)
    sql.exec(
      "UPDATE mem_doc SET tier = 'warm', tier_changed_at = ? WHERE tier = 'hot' AND id IN (SELECT value FROM json_each(?))",
      now,
      JSON.stringify(warm),
    );
  return warm;
}
