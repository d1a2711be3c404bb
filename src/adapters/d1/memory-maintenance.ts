// MemoryMaintenance over D1 (mem_doc, mem_actor_importance): paged importance decay, tier moves and TTL expiry.
import type { LeftIndex, MemoryMaintenance, TierRules } from "../../ports/memory-maintenance";

const DAY_MS = 86_400_000;
const PAGE = 2000;
/** rows per multi-row UPDATE: 4 parameters each, plus one, stays under D1's 100 bound parameters */
const ROWS_PER_UPDATE = 24;
const IDS_PER_STATEMENT = 90;
const STATEMENTS_PER_BATCH = 100;

const halfLifeOf = (rules: TierRules, cls: string) => (cls in rules.halfLifeDays ? rules.halfLifeDays[cls] : null);
const decayed = (raw: number, hl: number | null | undefined, elapsed: number) =>
  hl === null || hl === undefined || !(elapsed > 0) ? raw : raw * 0.5 ** (elapsed / (hl * DAY_MS));

function addLeft(left: Map<string, string[]>, teamId: string, id: string) {
  const ids = left.get(teamId) ?? [];
  ids.push(id);
  left.set(teamId, ids);
}
const toLeftIndex = (left: Map<string, string[]>): LeftIndex =>
  [...left.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([teamId, ids]) => ({ teamId, ids }));

export function createD1MemoryMaintenance(db: D1Database): MemoryMaintenance {
  async function runBatches(statements: D1PreparedStatement[]): Promise<number> {
    let changes = 0;
    for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
      const results = await db.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
      for (const r of results) changes += r.meta.changes ?? 0;
    }
    return changes;
  }

  const idStatements = (sql: (placeholders: string) => string, ids: string[], before: unknown[] = []) => {
    const out: D1PreparedStatement[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
      out.push(db.prepare(sql(chunk.map(() => "?").join(","))).bind(...before, ...chunk));
    }
    return out;
  };

  /** Importance decays at most once a day per row; a use-boost racing the sweep wins (guard on last_update_at). */
  async function decayImportance(now: number, rules: TierRules): Promise<number> {
    let after = { doc: "", actor: "" };
    let decayedRows = 0;
    for (;;) {
      const { results } = await db
        .prepare(
          `SELECT a.doc_id, a.actor_key, a.raw_score, a.last_update_at, d.class
           FROM mem_actor_importance a JOIN mem_doc d ON d.id = a.doc_id
           WHERE d.pinned = 0 AND a.last_update_at <= ? AND (a.doc_id, a.actor_key) > (?, ?)
           ORDER BY a.doc_id, a.actor_key LIMIT ?`,
        )
        .bind(now - DAY_MS, after.doc, after.actor, PAGE)
        .all<{ doc_id: string; actor_key: string; raw_score: number; last_update_at: number; class: string }>();
      if (results.length === 0) break;
      const updates = results.filter((r) => halfLifeOf(rules, r.class) != null);
      const statements: D1PreparedStatement[] = [];
      for (let i = 0; i < updates.length; i += ROWS_PER_UPDATE) {
        const chunk = updates.slice(i, i + ROWS_PER_UPDATE);
        const values = chunk.map(() => "(?, ?, ?, ?)").join(", ");
        const args = chunk.flatMap((r) => [
          r.doc_id,
          r.actor_key,
          decayed(r.raw_score, halfLifeOf(rules, r.class), now - r.last_update_at),
          r.last_update_at,
        ]);
        statements.push(
          db
            .prepare(
              `WITH v(doc_id, actor_key, score, seen) AS (VALUES ${values})
               UPDATE mem_actor_importance SET raw_score = v.score, last_update_at = ?
               FROM v WHERE mem_actor_importance.doc_id = v.doc_id AND mem_actor_importance.actor_key = v.actor_key
                 AND mem_actor_importance.last_update_at = v.seen`,
            )
            .bind(...args, now),
        );
      }
      decayedRows += await runBatches(statements);
      const last = results[results.length - 1] as { doc_id: string; actor_key: string };
      after = { doc: last.doc_id, actor: last.actor_key };
      if (results.length < PAGE) break;
    }
    return decayedRows;
  }

  /** hot → warm: importance (the highest across actors; the base, decayed since creation, when none) below the bar and idle long enough. */
  async function hotToWarm(now: number, rules: TierRules, left: Map<string, string[]>): Promise<number> {
    let after = "";
    let moved = 0;
    const idleBefore = now - rules.warmIdleMs;
    for (;;) {
      const { results } = await db
        .prepare(
          `SELECT d.id, d.team_id, d.class, d.created_at, MAX(a.raw_score) AS importance,
             COALESCE(MAX(a.last_used_at), d.created_at) AS last_active
           FROM mem_doc d LEFT JOIN mem_actor_importance a ON a.doc_id = d.id
           WHERE d.tier = 'hot' AND d.pinned = 0 AND d.created_at <= ? AND d.id > ?
           GROUP BY d.id HAVING last_active <= ?
           ORDER BY d.id LIMIT ?`,
        )
        .bind(idleBefore, after, idleBefore, PAGE)
        .all<{
          id: string;
          team_id: string;
          class: string;
          created_at: number;
          importance: number | null;
          last_active: number;
        }>();
      if (results.length === 0) break;
      const warm = results.filter((r) => {
        const hl = halfLifeOf(rules, r.class);
        if (hl === null || hl === undefined) return false; // rigid memory never leaves hot
        const importance = r.importance ?? decayed(rules.baseImportance, hl, now - r.created_at);
        return importance < rules.warmImportanceBelow;
      });
      const ids = warm.map((r) => r.id);
      const changed = await runBatches(
        idStatements(
          (p) => `UPDATE mem_doc SET tier = 'warm', tier_changed_at = ? WHERE tier = 'hot' AND id IN (${p})`,
          ids,
          [now],
        ),
      );
      moved += changed;
      for (const r of warm) addLeft(left, r.team_id, r.id);
      after = (results[results.length - 1] as { id: string }).id;
      if (results.length < PAGE) break;
    }
    return moved;
  }

  async function deleteDocs(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const statements = [
      ...idStatements((p) => `DELETE FROM mem_actor_importance WHERE doc_id IN (${p})`, ids),
      ...idStatements((p) => `DELETE FROM mem_use_event WHERE doc_id IN (${p})`, ids),
    ];
    await runBatches(statements);
    return runBatches(idStatements((p) => `DELETE FROM mem_doc WHERE id IN (${p})`, ids));
  }

  /** Pages through the ids a predicate selects, deleting each page (and its importance rows). */
  async function deleteWhere(where: string, args: unknown[], left: Map<string, string[]> | null): Promise<number> {
    let deleted = 0;
    for (;;) {
      const { results } = await db
        .prepare(`SELECT id, team_id, tier FROM mem_doc WHERE ${where} ORDER BY id LIMIT ?`)
        .bind(...args, PAGE)
        .all<{ id: string; team_id: string; tier: string }>();
      if (results.length === 0) break;
      const n = await deleteDocs(results.map((r) => r.id));
      deleted += n;
      if (left) for (const r of results) if (r.tier === "hot") addLeft(left, r.team_id, r.id);
      if (results.length < PAGE || n === 0) break;
    }
    return deleted;
  }

  return {
    async decayAndTier(now, rules) {
      const left = new Map<string, string[]>();
      const decayedRows = await decayImportance(now, rules);
      const toWarm = await hotToWarm(now, rules, left);
      const cold = await db
        .prepare(
          `UPDATE mem_doc SET tier = 'cold', tier_changed_at = ?
           WHERE tier = 'warm' AND pinned = 0 AND tier_changed_at <= ?`,
        )
        .bind(now, now - rules.coldAfterWarmMs)
        .run();
      const deleted =
        rules.deleteColdEpisodicAfterMs === null
          ? 0
          : await deleteWhere(
              "tier = 'cold' AND pinned = 0 AND class = 'episodic' AND created_at <= ?",
              [now - rules.deleteColdEpisodicAfterMs],
              null,
            );
      return { decayed: decayedRows, toWarm, toCold: cold.meta.changes ?? 0, deleted, leftIndex: toLeftIndex(left) };
    },

    async expireTaskNamespaces(now, rules) {
      const left = new Map<string, string[]>();
      const deleted = await deleteWhere(
        `(expires_at IS NOT NULL AND expires_at <= ?)
         OR (expires_at IS NULL AND pinned = 0 AND namespace LIKE 'team/%/task/%' AND created_at <= ?)`,
        [now, now - rules.taskTtlMs],
        left,
      );
      return { deleted, leftIndex: toLeftIndex(left) };
    },
  };
}
