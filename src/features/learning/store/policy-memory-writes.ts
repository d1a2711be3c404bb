// policy_memory_ledger, policy_memory_entry and retry_adjustment writes (D1, drizzle): each change is a guarded ledger
// row followed by the state it records, plus the retention sweep's archiving of decayed entries.
import { and, eq, lt, notExists, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { camelKeys } from "../../../lib/camel-keys";
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

// the stored state is the table's row in snake_case; an update sets everything but the row's key
function entryWrite(db: DrizzleD1Database, { state, expect }: EntryWrite) {
  const { entryId, teamId, skillName, contextHash, ...values } = camelKeys(state);
  if (expect.kind === "none") {
    return db.insert(policyMemoryEntries).values({ entryId, teamId, skillName, contextHash, ...values });
  }
  return db.update(policyMemoryEntries).set(values).where(eq(policyMemoryEntries.entryId, entryId));
}

function retryWrite(db: DrizzleD1Database, { state, expect }: RetryWrite) {
  const { teamId, failureClass, ...evidence } = camelKeys(state);
  if (expect.kind === "none") return db.insert(retryAdjustments).values({ teamId, failureClass, ...evidence });
  return db
    .update(retryAdjustments)
    .set(evidence)
    .where(and(eq(retryAdjustments.teamId, teamId), eq(retryAdjustments.failureClass, failureClass)));
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
