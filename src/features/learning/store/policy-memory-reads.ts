// policy_memory_entry and retry_adjustment reads (D1, drizzle): rows as stored, each with the newest ledger row of
// its entry, for the learning planner and the snapshot (the domain validates them: a corrupted row is reset).
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { retryEntryId } from "../domain";
import type { LedgerHead, StoredWithLedger } from "./learning-store-port";
import { policyMemoryEntries, policyMemoryLedger, retryAdjustments } from "./tables";

const e = policyMemoryEntries;
const r = retryAdjustments;
const l = policyMemoryLedger;

/**
 * An entry row as stored. recent_outcomes stays its JSON text and the flags their 0/1 (drizzle's json and boolean
 * modes would decode them): the domain's validation must see a corrupted value to reset it (DTL-STRAT-001).
 */
const ENTRY_ROW = {
  entry_id: e.entryId,
  team_id: e.teamId,
  skill_name: e.skillName,
  context_hash: e.contextHash,
  success_count: e.successCount,
  failure_count: e.failureCount,
  avg_cost_units: e.avgCostUnits,
  avg_steps: e.avgSteps,
  base_weight: e.baseWeight,
  recent_outcomes: sql<string>`${e.recentOutcomes}`,
  learning_stopped: sql<number>`${e.learningStopped}`,
  archived: sql<number>`${e.archived}`,
  last_used: e.lastUsed,
  created_at: e.createdAt,
  ledger_seq: e.ledgerSeq,
};

/** A retry adjustment row as stored. */
const RETRY_ROW = {
  team_id: r.teamId,
  failure_class: r.failureClass,
  recovered_count: r.recoveredCount,
  exhausted_count: r.exhaustedCount,
  recovery_attempts_sum: r.recoveryAttemptsSum,
  backoff_multiplier: r.backoffMultiplier,
  max_attempts_override: r.maxAttemptsOverride,
  ledger_seq: r.ledgerSeq,
  updated_at: r.updatedAt,
};

/** the newest ledger row of an entry as JSON `{seq, change}` (a correlated subquery; NULL when it has none) */
function ledgerHead(db: DrizzleD1Database, entryId: SQLiteColumn | string, teamId: SQLiteColumn): SQL<string | null> {
  const newest = db
    .select({ head: sql`json_object('seq', ${l.seq}, 'change', ${l.change})` })
    .from(l)
    .where(and(eq(l.entryId, entryId), eq(l.teamId, teamId)))
    .orderBy(desc(l.seq))
    .limit(1);
  return sql<string | null>`${newest}`;
}

/** A ledger head as the planner compares it; an unreadable one is seq -1, which matches no stored state. */
export function parseHead(value: unknown): LedgerHead | null {
  if (typeof value !== "string") return null;
  try {
    const head = JSON.parse(value) as { seq: number; change: string | null };
    const change = typeof head.change === "string" ? (JSON.parse(head.change) as Record<string, unknown>) : null;
    const after = change && typeof change.after === "object" ? (change.after as Record<string, unknown>) : null;
    return { seq: head.seq, after };
  } catch {
    return { seq: -1, after: null };
  }
}

/** a row read with its ledger head → the port's shape */
export function withHead({ ledger_head, ...row }: { ledger_head: string | null }): StoredWithLedger {
  return { row, head: parseHead(ledger_head) };
}

/** the ledger keys (skill names, `retry:<class>`) this run already changed */
export function learnedSkillsQuery(db: DrizzleD1Database, teamId: string, runId: string) {
  return db
    .select({ skill_name: l.skillName })
    .from(l)
    .where(and(eq(l.teamId, teamId), eq(l.runId, runId)));
}

/** one entry with its ledger head, by skill × context (at most one row) */
export function entryByKeyQuery(db: DrizzleD1Database, teamId: string, skill: string, contextHash: string) {
  return db
    .select({ ...ENTRY_ROW, ledger_head: ledgerHead(db, e.entryId, e.teamId) })
    .from(e)
    .where(and(eq(e.teamId, teamId), eq(e.skillName, skill), eq(e.contextHash, contextHash)));
}

/** one entry with its ledger head, by id within the team (at most one row) */
export function entryByIdQuery(db: DrizzleD1Database, teamId: string, entryId: string) {
  return db
    .select({ ...ENTRY_ROW, ledger_head: ledgerHead(db, e.entryId, e.teamId) })
    .from(e)
    .where(and(eq(e.teamId, teamId), eq(e.entryId, entryId)));
}

/** a team's retry adjustment of one failure class with its ledger head (at most one row) */
export function retryByClassQuery(db: DrizzleD1Database, teamId: string, failureClass: string) {
  return db
    .select({ ...RETRY_ROW, ledger_head: ledgerHead(db, retryEntryId(teamId, failureClass), r.teamId) })
    .from(r)
    .where(and(eq(r.teamId, teamId), eq(r.failureClass, failureClass)));
}

/** a team's entries and retry adjustments for its snapshot, in the snapshot's order (bounded) */
export function snapshotQueries(db: DrizzleD1Database, teamId: string) {
  return [
    db
      .select(ENTRY_ROW)
      .from(e)
      .where(eq(e.teamId, teamId))
      .orderBy(asc(e.skillName), asc(e.contextHash), asc(e.entryId))
      .limit(10_000),
    db.select(RETRY_ROW).from(r).where(eq(r.teamId, teamId)).orderBy(asc(r.failureClass)).limit(1000),
  ] as const;
}
