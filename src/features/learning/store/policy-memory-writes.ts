// policy_memory_ledger, policy_memory_entry and retry_adjustment writes (D1, drizzle): each change is a guarded ledger
// row followed by the state it records, plus the retention sweep's archiving of decayed entries.
import { and, eq, lt, notExists, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { EntryWrite, RetryWrite } from "./learning-store-port";
import { policyMemoryEntries, policyMemoryLedger, retryAdjustments } from "./tables";

/**
 * The ledger row's entry_id, or NULL when the stored state is no longer what the write expects (`none`: no row yet;
 * `seq`: still at that ledger_seq; `exists`: there). entry_id is NOT NULL, so a NULL aborts the whole batch.
 */
function guardedEntryId(db: DrizzleD1Database, w: EntryWrite | RetryWrite): SQL {
  const e = policyMemoryEntries;
  const r = retryAdjustments;
  const stored = (seq: number | null) => {
    const select = db.select({ entryId: sql`${w.entryId}` });
    if (w.target === "retry") {
      const key = and(eq(r.teamId, w.teamId), eq(r.failureClass, w.state.failure_class));
      return select.from(r).where(seq === null ? key : and(key, eq(r.ledgerSeq, seq)));
    }
    // a new entry is looked for by its natural key, an existing one by its id
    const key =
      w.expect.kind === "none"
        ? and(eq(e.teamId, w.teamId), eq(e.skillName, w.state.skill_name), eq(e.contextHash, w.state.context_hash))
        : eq(e.entryId, w.entryId);
    return select.from(e).where(seq === null ? key : and(key, eq(e.ledgerSeq, seq)));
  };
  if (w.expect.kind === "none") return sql`(SELECT ${w.entryId} WHERE ${notExists(stored(null))})`;
  return sql`${stored(w.expect.kind === "seq" ? w.expect.seq : null)}`;
}

/** The ledger row of one change; it goes in before the state and only while its guard holds. */
export function ledgerInsert(db: DrizzleD1Database, w: EntryWrite | RetryWrite) {
  return db.insert(policyMemoryLedger).values({
    id: w.ledgerId,
    teamId: w.teamId,
    runId: w.runId,
    entryId: guardedEntryId(db, w),
    skillName: w.ledgerKey,
    change: w.change,
    createdAt: w.createdAt,
    seq: w.seq,
  });
}

/** The state a change leaves: the row is inserted when the write expects none yet, else updated in place. */
export function stateWrite(db: DrizzleD1Database, w: EntryWrite | RetryWrite) {
  return w.target === "entry" ? entryWrite(db, w) : retryWrite(db, w);
}

function entryWrite(db: DrizzleD1Database, { state: s, expect }: EntryWrite) {
  const values = {
    successCount: s.success_count,
    failureCount: s.failure_count,
    avgCostUnits: s.avg_cost_units,
    avgSteps: s.avg_steps,
    baseWeight: s.base_weight,
    recentOutcomes: s.recent_outcomes,
    learningStopped: s.learning_stopped,
    archived: s.archived,
    lastUsed: s.last_used,
    ledgerSeq: s.ledger_seq,
    createdAt: s.created_at,
  };
  if (expect.kind === "none") {
    const key = { entryId: s.entry_id, teamId: s.team_id, skillName: s.skill_name, contextHash: s.context_hash };
    return db.insert(policyMemoryEntries).values({ ...key, ...values });
  }
  return db.update(policyMemoryEntries).set(values).where(eq(policyMemoryEntries.entryId, s.entry_id));
}

function retryWrite(db: DrizzleD1Database, { state: s, expect }: RetryWrite) {
  const evidence = {
    recoveredCount: s.recovered_count,
    exhaustedCount: s.exhausted_count,
    recoveryAttemptsSum: s.recovery_attempts_sum,
    backoffMultiplier: s.backoff_multiplier,
    maxAttemptsOverride: s.max_attempts_override,
    ledgerSeq: s.ledger_seq,
    updatedAt: s.updated_at,
  };
  if (expect.kind === "none") {
    return db.insert(retryAdjustments).values({ teamId: s.team_id, failureClass: s.failure_class, ...evidence });
  }
  return db
    .update(retryAdjustments)
    .set(evidence)
    .where(and(eq(retryAdjustments.teamId, s.team_id), eq(retryAdjustments.failureClass, s.failure_class)));
}

/**
 * Archiving of decayed entries, for the retention sweep: flags the entries unused since `cutoff` and returns them.
 */
export function archivePolicyMemoryStatement(db: DrizzleD1Database, cutoff: number) {
  return db
    .update(policyMemoryEntries)
    .set({ archived: true })
    .where(and(eq(policyMemoryEntries.archived, false), lt(policyMemoryEntries.lastUsed, cutoff)))
    .returning({ teamId: policyMemoryEntries.teamId, entryId: policyMemoryEntries.entryId });
}
