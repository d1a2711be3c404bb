// DecisionCounterStore over D1: the decision log's counters, its batch manifest and its outage counter (issue 27).
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { DecisionCounterStore, DecisionFlush } from "../../../ports/decision-log";
import { decisionCounters, decisionLogBatches, decisionLogOutages } from "./tables";

const HOUR_MS = 3_600_000;

/** D1 binds at most 100 parameters per statement: 8 per counter row and the batch id once → 12 rows a statement. */
export const COUNTER_ROWS_PER_STATEMENT = 12;

/**
 * Adds up to 12 counter rows unless the flush is already in the manifest: the NOT EXISTS and the manifest insert that
 * follows run in the same D1 batch (one transaction), so a redelivered flush adds nothing. D1 statements per flush:
 * ⌈distinct (team, hour, class, mode, action) ÷ 12⌉ + 1, however many decisions it holds.
 */
const guardedUpsert = (rows: number) => `INSERT INTO decision_counter
  (team_id, hour, failure_class, mode, action, decisions, unknown_class, missing_metadata)
  SELECT * FROM (VALUES ${Array.from({ length: rows }, () => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")})
  WHERE NOT EXISTS (SELECT 1 FROM decision_log_batch WHERE batch_id = ?)
  ON CONFLICT (team_id, hour, failure_class, mode, action) DO UPDATE SET
    decisions = decisions + excluded.decisions,
    unknown_class = unknown_class + excluded.unknown_class,
    missing_metadata = missing_metadata + excluded.missing_metadata`;

const MANIFEST_INSERT = `INSERT INTO decision_log_batch (batch_id, decisions, objects, written_at)
  VALUES (?, ?, ?, ?) ON CONFLICT (batch_id) DO NOTHING`;

function statements(d1: D1Database, f: DecisionFlush, now: number): D1PreparedStatement[] {
  const values = f.objects.flatMap((o) =>
    o.counters.map((c) => [
      o.teamId,
      o.hour,
      c.failureClass,
      c.mode,
      c.action,
      c.decisions,
      c.unknownClass,
      c.missingMetadata,
    ]),
  );
  const upserts: D1PreparedStatement[] = [];
  for (let i = 0; i < values.length; i += COUNTER_ROWS_PER_STATEMENT) {
    const chunk = values.slice(i, i + COUNTER_ROWS_PER_STATEMENT);
    upserts.push(d1.prepare(guardedUpsert(chunk.length)).bind(...chunk.flat(), f.batchId));
  }
  return [...upserts, d1.prepare(MANIFEST_INSERT).bind(f.batchId, f.decisions, f.objects.length, now)];
}

export function createD1DecisionCounterStore(d1: D1Database, db: DrizzleD1Database): DecisionCounterStore {
  const c = decisionCounters;
  return {
    async apply(flush, now) {
      if (flush.objects.length > 0) await d1.batch(statements(d1, flush, now));
    },

    async counts(teamId, fromHour) {
      const [row] = await db
        .select({
          decisions: sql<number>`coalesce(sum(${c.decisions}), 0)`,
          escalations: sql<number>`coalesce(sum(CASE WHEN ${c.action} = 'escalate' THEN ${c.decisions} ELSE 0 END), 0)`,
          unknownClass: sql<number>`coalesce(sum(${c.unknownClass}), 0)`,
          missingMetadata: sql<number>`coalesce(sum(${c.missingMetadata}), 0)`,
        })
        .from(c)
        .where(and(eq(c.teamId, teamId), gte(c.hour, fromHour)));
      return {
        decisions: row?.decisions ?? 0,
        escalations: row?.escalations ?? 0,
        unknownClass: row?.unknownClass ?? 0,
        missingMetadata: row?.missingMetadata ?? 0,
      };
    },

    async teamsSince(sinceMs) {
      const fromHour = sinceMs - (sinceMs % HOUR_MS);
      const rows = await db.selectDistinct({ teamId: c.teamId }).from(c).where(gte(c.hour, fromHour)).orderBy(c.teamId);
      return rows.map((r) => r.teamId);
    },

    async pruneManifest(before) {
      const result = await db.delete(decisionLogBatches).where(lt(decisionLogBatches.writtenAt, before));
      return result.meta.changes ?? 0;
    },

    async countOutage(hour, error, now) {
      const o = decisionLogOutages;
      await db
        .insert(o)
        .values({ hour, failures: 1, lastError: error.slice(0, 500), lastAt: now })
        .onConflictDoUpdate({
          target: o.hour,
          set: { failures: sql`${o.failures} + 1`, lastError: sql`excluded.last_error`, lastAt: sql`excluded.last_at` },
        });
    },

    async outages(fromHour) {
      const o = decisionLogOutages;
      const rows = await db.select().from(o).where(gte(o.hour, fromHour)).orderBy(o.hour);
      return rows.map((r) => ({ hour: r.hour, failures: r.failures, last_error: r.lastError }));
    },
  };
}
