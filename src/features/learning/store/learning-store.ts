// LearningStore over D1 (drizzle, typed rows): composes the statements of the learning tables' owners into the
// atomic batches the port promises, and turns a batch that lost a race into a LearningConflict.
import type { BatchItem } from "drizzle-orm/batch";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import { err, ok, type Result } from "../../../lib/result";
import { auditInsert } from "../../audit";
import { entryKey } from "../domain";
import { recordGateMetrics } from "./gate-metrics";
import type {
  LearningCommit,
  LearningConflict,
  LearningState,
  LearningStore,
  TaskSignalWrite,
} from "./learning-store-port";
import {
  entryByIdQuery,
  entryByKeyQuery,
  learnedSkillsQuery,
  retryByClassQuery,
  snapshotQueries,
  withHead,
} from "./policy-memory-reads";
import { ledgerInsert, stateWrite } from "./policy-memory-writes";
import { processedAmong, processedEventInsert } from "./processed-events";
import { countFailureSignature, dropStagedTasksStatement, stagedTasksQuery, stageTaskOutcome } from "./task-outcomes";

/** A failed batch's constraint → the conflict the use-case understands; anything else is rethrown as is. */
export function conflictOf(e: unknown): LearningConflict {
  const text = String(e);
  if (/UNIQUE constraint failed: processed_event\.event_id/i.test(text)) {
    return { kind: "already_processed", message: "event applied by another delivery" };
  }
  if (
    /NOT NULL constraint failed: policy_memory_ledger\.entry_id/i.test(text) ||
    /UNIQUE constraint failed: (policy_memory_ledger|policy_memory_entry|retry_adjustment)\./i.test(text)
  ) {
    return { kind: "state_moved", message: "policy memory changed under this write" };
  }
  throw e;
}

/** Runs the statements as one atomic batch; a lost race is an error result, not a throw. */
async function atomically(
  db: DrizzleD1Database,
  statements: BatchItem<"sqlite">[],
): Promise<Result<unknown[], LearningConflict>> {
  try {
    return ok(await batchAll(db, statements));
  } catch (e) {
    return err(conflictOf(e));
  }
}

/**
 * task.* events in ONE batch: per event its processed_event key, its staged outcome and (failed/blocked) its signature
 * count; answers each event's count after the write.
 */
async function applyTaskSignals(
  db: DrizzleD1Database,
  signals: TaskSignalWrite[],
  now: number,
): Promise<Result<Map<string, number | null>, LearningConflict>> {
  const statements: BatchItem<"sqlite">[] = [];
  const countAt = new Map<string, number>();
  for (const s of signals) {
    statements.push(processedEventInsert(db, s.eventId, s.type, now), stageTaskOutcome(db, s));
    if (s.signature) {
      countAt.set(s.eventId, statements.length);
      statements.push(countFailureSignature(db, s.teamId, s.signature, s.occurredAt));
    }
  }
  const written = await atomically(db, statements);
  if (!written.ok) return written;
  const counts = new Map<string, number | null>();
  for (const s of signals) {
    const at = countAt.get(s.eventId);
    const rows = at === undefined ? [] : (written.value[at] as Awaited<ReturnType<typeof countFailureSignature>>);
    counts.set(s.eventId, rows[0]?.count ?? null);
  }
  return ok(counts);
}

/** One batch of reads: the run's ledger keys, then each entry, then each retry class, with their ledger heads. */
async function loadLearningState(
  db: DrizzleD1Database,
  teamId: string,
  runId: string,
  entries: { skill: string; contextHash: string }[],
  failureClasses: string[],
): Promise<LearningState> {
  const [learned, ...found] = await db.batch([
    learnedSkillsQuery(db, teamId, runId),
    ...entries.map((e) => entryByKeyQuery(db, teamId, e.skill, e.contextHash)),
    ...failureClasses.map((cls) => retryByClassQuery(db, teamId, cls)),
  ]);
  const state: LearningState = {
    learned: new Set(learned.map((r) => r.skill_name)),
    entries: new Map(),
    retries: new Map(),
  };
  entries.forEach((e, i) => {
    const row = found[i]?.[0];
    if (row) state.entries.set(entryKey(e.skill, e.contextHash), withHead(row));
  });
  failureClasses.forEach((cls, i) => {
    const row = found[entries.length + i]?.[0];
    if (row) state.retries.set(cls, withHead(row));
  });
  return state;
}

/** One batch: processed_event, per write its guarded ledger row then its state, the audit row, the staged rows dropped. */
async function commitLearning(db: DrizzleD1Database, commit: LearningCommit): Promise<Result<void, LearningConflict>> {
  const { audit } = commit;
  const written = await atomically(db, [
    processedEventInsert(db, commit.eventId, commit.eventType ?? "run.completed", commit.now),
    ...commit.writes.flatMap((w) => [ledgerInsert(db, w), stateWrite(db, w)]),
    ...(audit
      ? [
          auditInsert(db, {
            id: audit.id,
            teamId: commit.teamId,
            actor: audit.actor ?? "learning",
            action: audit.action,
            subjectType: audit.subject?.type ?? "run",
            subjectId: audit.subject?.id ?? commit.runId,
            metadata: audit.metadata,
            createdAt: commit.now,
          }),
        ]
      : []),
    dropStagedTasksStatement(db, commit.teamId, commit.runId),
  ]);
  return written.ok ? ok(undefined) : written;
}

export function createD1LearningStore(d1: D1Database): LearningStore {
  const db = drizzle(d1);
  return {
    processedAmong: (eventIds) => processedAmong(db, eventIds),
    applyTaskSignals: (signals, now) => applyTaskSignals(db, signals, now),
    stagedTasks: (teamId, runId) => stagedTasksQuery(db, teamId, runId),
    loadLearningState: (teamId, runId, entries, classes) => loadLearningState(db, teamId, runId, entries, classes),
    commitLearning: (commit) => commitLearning(db, commit),
    async entryById(teamId, entryId) {
      const [row] = await entryByIdQuery(db, teamId, entryId);
      return row ? withHead(row) : null;
    },
    async snapshotRows(teamId) {
      const [entries, retries] = await db.batch(snapshotQueries(db, teamId));
      return { entries, retries };
    },
    recordGateEvents: (rows) => recordGateMetrics(db, rows),
  };
}
