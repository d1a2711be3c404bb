// Port: where the learning consumer keeps idempotency keys, staged task outcomes, failure signatures and policy memory.

import type { Result } from "../../../lib/result";

/** One policy memory entry (skill × context) as stored: counts, weight, recent outcome signatures, ledger head. */
export type EntryState = {
  entry_id: string;
  team_id: string;
  skill_name: string;
  context_hash: string;
  success_count: number;
  failure_count: number;
  avg_cost_units: number;
  avg_steps: number;
  base_weight: number;
  /** outcome signatures, newest last, at most CIRCUIT_BREAK_AFTER */
  recent_outcomes: string[];
  learning_stopped: boolean;
  archived: boolean;
  last_used: number;
  created_at: number;
  ledger_seq: number;
};

/** One team's retry adjustment for one failure class, as stored. */
export type RetryState = {
  team_id: string;
  failure_class: string;
  recovered_count: number;
  exhausted_count: number;
  recovery_attempts_sum: number;
  backoff_multiplier: number;
  max_attempts_override: number | null;
  ledger_seq: number;
  updated_at: number;
};

/** A task.* event as stored: staged for its run's learning, and counted by failure signature. */
export type TaskSignalWrite = {
  eventId: string;
  type: "task.failed" | "task.blocked" | "task.completed";
  teamId: string;
  runId: string;
  taskId: string;
  skill: string | null;
  context: string | null;
  failureClass: string | null;
  attempt: number | null;
  costUnits: number;
  steps: number | null;
  occurredAt: number;
  /** for failed/blocked: the signature to count, with the fields it was made from */
  signature: { hash: string; taskKey: string; reason: string | null; exitCodeBucket: string | null } | null;
};

export type StagedTaskRow = {
  task_id: string;
  skill: string | null;
  context: string | null;
  succeeded: number;
  failures: number;
  blocks: number;
  first_failure_class: string | null;
  last_failure_class: string | null;
  attempts: number;
  cost_units: number;
  steps: number;
};

/** The newest ledger row of an entry: what state the ledger says the entry is in. */
export type LedgerHead = { seq: number; after: Record<string, unknown> | null };

export type StoredWithLedger = { row: Record<string, unknown>; head: LedgerHead | null };

export type LearningState = {
  /** ledger skill_name keys this run already changed (W4) */
  learned: Set<string>;
  /** by entryKey(skill, context_hash) */
  entries: Map<string, StoredWithLedger>;
  /** by failure class */
  retries: Map<string, StoredWithLedger>;
};

/** One guarded change: the ledger row goes in first and only if the stored state is still `expect`. */
export type LedgerWrite = {
  ledgerId: string;
  teamId: string;
  runId: string;
  entryId: string;
  /** skill name, or `retry:<class>` for retry adjustments */
  ledgerKey: string;
  seq: number;
  change: Record<string, unknown>;
  createdAt: number;
  /** none: no row may exist yet; seq: the row must still be at this ledger_seq; exists: the row must exist */
  expect: { kind: "none" } | { kind: "seq"; seq: number } | { kind: "exists" };
};

export type EntryWrite = LedgerWrite & { target: "entry"; state: EntryState };

export type RetryWrite = LedgerWrite & { target: "retry"; state: RetryState };

export type LearningCommit = {
  eventId: string;
  teamId: string;
  runId: string;
  now: number;
  writes: (EntryWrite | RetryWrite)[];
  /** an audit row when learning for the run was aborted or partly skipped, or for an admin's change */
  audit: {
    id: string;
    action: string;
    metadata: Record<string, unknown>;
    /** who acted and on what: "learning" on the run unless given */
    actor?: string;
    subject?: { type: string; id: string };
  } | null;
  /** the processed_event type of eventId: "run.completed" unless given */
  eventType?: string;
};

export interface LearningStore {
  /** which of these event ids were applied already */
  processedAmong(eventIds: string[]): Promise<Set<string>>;
  /**
   * Applies task.* events in ONE db.batch: the processed_event key, the staged outcome and the signature count
   * per event. Returns each event's signature count after the write. Throws when any statement fails.
   */
  applyTaskSignals(
    signals: TaskSignalWrite[],
    now: number,
  ): Promise<Result<Map<string, number | null>, LearningConflict>>;
  stagedTasks(teamId: string, runId: string): Promise<StagedTaskRow[]>;
  loadLearningState(
    teamId: string,
    runId: string,
    entries: { skill: string; contextHash: string }[],
    failureClasses: string[],
  ): Promise<LearningState>;
  /**
   * One db.batch: processed_event, then per write the guarded ledger insert followed by the state change, then the
   * run's staged rows are dropped. A guard that no longer holds aborts the whole batch (an error result).
   */
  commitLearning(commit: LearningCommit): Promise<Result<void, LearningConflict>>;
  /** one entry of the team with its ledger head (null when the team has no such entry) */
  entryById(teamId: string, entryId: string): Promise<StoredWithLedger | null>;
  /** raw rows for the snapshot (validated by the domain) */
  snapshotRows(teamId: string): Promise<{ entries: Record<string, unknown>[]; retries: Record<string, unknown>[] }>;
  /** gate.opened / gate.decided, upserted by (team, gate) */
  recordGateEvents(
    rows: {
      teamId: string;
      gateId: string;
      runId: string;
      policyKey: string | null;
      kind: string | null;
      openedAt: number | null;
      decidedAt: number | null;
      decision: string | null;
      decidedBy: string | null;
      latencyMs: number | null;
    }[],
  ): Promise<void>;
}

/** A batch that lost a race: the event was applied by another delivery meanwhile, or a guard no longer held. */
export type LearningConflict = { kind: "already_processed" | "state_moved"; message: string };
