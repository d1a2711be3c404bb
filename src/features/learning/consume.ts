// Use-cases behind the EVENTS consumer: task.* events (staging, signatures, YARLI memories) and run.completed learning.

import type { EventOf, RunCompletedEvent, TaskSignalEvent } from "../../../contracts/internal-events";
import { sha256Hex } from "../../lib/digest";
import { log } from "../../lib/log";
import { ok, type Result } from "../../lib/result";
import type { WardenEvent } from "../../ports/event-bus";
import {
  type RunCompletion,
  retryObservations,
  runCompletionOf,
  skillTotals,
  stagedToOutcome,
  type TaskSignal,
  taskSignalOf,
} from "./events";
import type { LearningNeeds } from "./needs";
import { planRunLearning, type RunLearningPlan } from "./plan";
import { DEFAULT_CONTEXT_HASH, STRAT_RESET_CODE } from "./policy-memory";
import type { LearningCommit, LearningConflict, LearningStore, TaskSignalWrite } from "./store/learning-store-port";
import { planTaskMemory, signatureText } from "./task-memory";

/** The consumer handlers' dependencies: the feature's declared needs. */
export type LearningDeps = LearningNeeds;

/** Lets a handler ack each message as soon as its effect is committed, so a later failure retries only the rest. */
export type HandlerContext = { applied(eventId: string): void };

export const contextHash = async (context: string | null | undefined) =>
  context ? sha256Hex(context) : DEFAULT_CONTEXT_HASH;

export type TaskBatchMode = "batch" | "per-message";

type FreshSignal = TaskSignalWrite & { memory: TaskSignal };

/**
 * task.failed / task.blocked / task.completed. "batch" writes every new event of the queue batch in ONE
 * db.batch(); if that batch fails, each event is retried on its own so one bad event fails alone. Returns the ids
 * to retry. After the write, YARLI memories go to the sink (best-effort: never blocks or fails the consumer).
 */
export async function applyTaskEvents(
  events: TaskSignalEvent[],
  deps: LearningDeps,
  ctx: HandlerContext,
  mode: TaskBatchMode = "batch",
): Promise<Set<string>> {
  const failed = new Set<string>();
  const now = deps.clock.now();
  const writes = await freshSignals(events, deps, ctx);
  const counts = await writeSignals(writes, deps, ctx, now, mode, failed);
  await storeTaskMemories(
    writes.filter((w) => !failed.has(w.eventId) && counts.has(w.eventId)),
    counts,
    deps,
  );
  return failed;
}

/**
 * The batch's task events sorted out (the consumer parsed each one): one applied before is acked, the rest come back
 * once each (an event twice in one batch is applied once), with the signature a failed or blocked task is counted under.
 */
async function freshSignals(
  events: TaskSignalEvent[],
  deps: LearningDeps,
  ctx: HandlerContext,
): Promise<FreshSignal[]> {
  const fresh = new Map<string, FreshSignal>();
  const signals = events.map(taskSignalOf);
  const done = await deps.learningStore.processedAmong(signals.map((s) => s.eventId));
  for (const s of signals) {
    if (done.has(s.eventId)) ctx.applied(s.eventId);
    else if (!fresh.has(s.eventId)) fresh.set(s.eventId, { ...s, signature: await taskSignature(s), memory: s });
  }
  return [...fresh.values()];
}

/** A failed or blocked task's signature: a hash of the team and the signature text, with the fields it was made from. */
async function taskSignature(s: TaskSignal): Promise<TaskSignalWrite["signature"]> {
  if (s.type === "task.completed") return null;
  return {
    hash: await sha256Hex(`${s.teamId}\u0000${signatureText(s)}`),
    taskKey: s.taskKey,
    reason: s.reason,
    exitCodeBucket: s.exitCodeBucket,
  };
}

/**
 * Writes the fresh events, acking each once committed: all in one batch, or one by one (per-message mode, or after
 * the batch failed). Returns the signature counts of the events written.
 */
async function writeSignals(
  writes: FreshSignal[],
  deps: LearningDeps,
  ctx: HandlerContext,
  now: number,
  mode: TaskBatchMode,
  failed: Set<string>,
): Promise<Map<string, number | null>> {
  const counts = new Map<string, number | null>();
  if (writes.length === 0) return counts;
  if (mode === "batch") {
    let batch: Awaited<ReturnType<LearningStore["applyTaskSignals"]>> | undefined;
    try {
      batch = await deps.learningStore.applyTaskSignals(writes, now);
    } catch (e) {
      log.warn("events consumer: batch write failed; applying one by one", { error: String(e) });
    }
    if (batch?.ok) {
      for (const w of writes) ctx.applied(w.eventId);
      return batch.value;
    }
    if (batch) log.warn("events consumer: batch write failed; applying one by one", { error: batch.error.message });
  }
  for (const w of writes) {
    const written = await writeSignalAlone(w, deps, ctx, now);
    if (written === "failed") failed.add(w.eventId);
    else if (written !== "already_processed") counts.set(w.eventId, written);
  }
  return counts;
}

/** One event in a batch of its own: its signature count, "already_processed" (acked too), or "failed" (logged). */
async function writeSignalAlone(
  w: FreshSignal,
  deps: LearningDeps,
  ctx: HandlerContext,
  now: number,
): Promise<number | null | "already_processed" | "failed"> {
  let error: unknown;
  try {
    const one = await deps.learningStore.applyTaskSignals([w], now);
    if (one.ok) {
      ctx.applied(w.eventId);
      return one.value.get(w.eventId) ?? null;
    }
    // applied by another delivery meanwhile: done
    if (one.error.kind === "already_processed") {
      ctx.applied(w.eventId);
      return "already_processed";
    }
    error = one.error.message;
  } catch (e) {
    error = e;
  }
  log.error("events consumer: task event failed", { event_id: w.eventId, error: String(error) });
  return "failed";
}

async function storeTaskMemories(
  writes: FreshSignal[],
  counts: Map<string, number | null>,
  deps: LearningDeps,
): Promise<void> {
  const refusals: WardenEvent[] = [];
  for (const w of writes) {
    if (!w.memory || !w.signature) continue;
    const plan = planTaskMemory(w.memory, counts.get(w.eventId) ?? 0, w.signature.hash.slice(0, 32));
    if (!plan) continue;
    try {
      const result = await deps.taskMemory.store(w.teamId, plan);
      if (!result.ok) {
        refusals.push({
          event_id: `${w.eventId}:memory_store_failed`,
          type: "task.memory_store_failed",
          team_id: w.teamId,
          run_id: w.runId,
          occurred_at: deps.clock.now(),
          source_event_id: w.eventId,
          task_id: w.taskId,
          namespace: plan.namespace,
          class: plan.class,
          code: result.code,
          rule_ids: result.ruleIds,
        });
      }
    } catch (e) {
      // Best-effort (YARLI): a memory backend failure never changes the consumer's outcome.
      log.warn("events consumer: memory write failed", { event_id: w.eventId, error: String(e) });
    }
  }
  if (refusals.length > 0) {
    await deps.events.publish(refusals).catch((e) => log.warn("memory_store_failed publish failed", { e: `${e}` }));
  }
}

/**
 * run.completed: learning for the run (W1), one db.batch per run with the ledger rows first (W2). Runs are applied
 * one by one and acked as they commit; a run whose write lost a race is retried, a desynced run is aborted.
 */
export async function applyRunCompletions(
  events: RunCompletedEvent[],
  deps: LearningDeps,
  ctx: HandlerContext,
): Promise<Set<string>> {
  const failed = new Set<string>();
  const seen = new Set<string>();
  for (const event of events) {
    const now = deps.clock.now();
    const run = runCompletionOf(event);
    if (seen.has(run.eventId)) continue;
    seen.add(run.eventId);
    let error: unknown;
    try {
      const learned = await learnRun(run, deps, now);
      // applied, or applied by another delivery meanwhile: done either way
      if (learned.ok || learned.error.kind === "already_processed") {
        ctx.applied(run.eventId);
        continue;
      }
      error = learned.error.message;
    } catch (e) {
      error = e;
    }
    log.error("events consumer: run learning failed", { event_id: run.eventId, error: String(error) });
    failed.add(run.eventId);
  }
  return failed;
}

/** What a run teaches: its skills' totals (by skill × context hash) and up to 32 retry observations by failure class. */
async function runLessons(run: RunCompletion, store: LearningStore) {
  const tasks = run.tasks ?? (await store.stagedTasks(run.teamId, run.runId)).map(stagedToOutcome);
  const skills = await Promise.all(
    skillTotals(tasks).map(async (t) => ({
      skill: t.skill,
      contextHash: await contextHash(t.context),
      success: t.success,
      failureClass: t.failureClass,
      costUnits: t.costUnits,
      steps: t.steps,
    })),
  );
  return { skills, retries: retryObservations(tasks).slice(0, 32) };
}

/**
 * The audit row of a run whose learning was aborted (ledger/state mismatch) or partly skipped; null when neither
 * (an id is drawn only for a row).
 */
export function learningAudit(
  run: { eventId: string },
  plan: RunLearningPlan,
  newAuditId: () => string,
): LearningCommit["audit"] {
  if (plan.kind === "abort") {
    return {
      id: newAuditId(),
      action: "policy_memory.learning_aborted",
      metadata: { event_id: run.eventId, reason: plan.reason, entry: plan.ledgerKey, entry_id: plan.entryId },
    };
  }
  if (plan.skipped.length === 0) return null;
  return {
    id: newAuditId(),
    action: "policy_memory.learning_skipped",
    metadata: { event_id: run.eventId, skipped: plan.skipped },
  };
}

/** The log lines of a plan: the abort, or each warning (a DTL-STRAT-001 reset as an error). */
function logPlan(run: RunCompletion, plan: RunLearningPlan) {
  const where = { team_id: run.teamId, run_id: run.runId };
  if (plan.kind === "abort") {
    log.error("policy memory: ledger/state mismatch; learning aborted for run", {
      ...where,
      event_id: run.eventId,
      entry: plan.ledgerKey,
    });
    return;
  }
  for (const w of plan.warnings) {
    const reset = w.startsWith(STRAT_RESET_CODE);
    log[reset ? "error" : "warn"]("policy memory", {
      code: reset ? STRAT_RESET_CODE : undefined,
      ...where,
      warning: w,
    });
  }
}

/** One run's learning: read what the run changes, plan it, commit it in one batch (an abort commits only its audit). */
async function learnRun(run: RunCompletion, deps: LearningDeps, now: number): Promise<Result<void, LearningConflict>> {
  const store = deps.learningStore;
  if ((await store.processedAmong([run.eventId])).has(run.eventId)) return ok(undefined);
  const { skills, retries } = await runLessons(run, store);
  const state = await store.loadLearningState(
    run.teamId,
    run.runId,
    skills.map((s) => ({ skill: s.skill, contextHash: s.contextHash })),
    retries.map((r) => r.failureClass),
  );
  const plan = planRunLearning({
    teamId: run.teamId,
    runId: run.runId,
    eventId: run.eventId,
    at: run.occurredAt,
    now,
    skills,
    retries,
    state,
    newId: deps.newId,
  });
  logPlan(run, plan);
  return store.commitLearning({
    eventId: run.eventId,
    teamId: run.teamId,
    runId: run.runId,
    now,
    writes: plan.kind === "abort" ? [] : plan.writes,
    audit: learningAudit(run, plan, () => deps.newId("aud")),
  });
}

/** gate.opened / gate.decided from RunDO: kind and human latency for the metrics (idempotent upserts by gate). */
export async function recordGateEvents(
  events: EventOf<"gate.opened" | "gate.decided">[],
  deps: LearningDeps,
): Promise<Set<string>> {
  const rows = events.map((e) => {
    const decided = e.type === "gate.decided" ? e : null;
    return {
      teamId: e.team_id,
      gateId: e.gate_id,
      runId: e.run_id,
      policyKey: e.policy_key,
      kind: e.kind,
      openedAt: decided ? e.occurred_at - decided.latency_ms : e.occurred_at,
      decidedAt: decided ? e.occurred_at : null,
      decision: decided?.decision ?? null,
      decidedBy: decided?.decided_by ?? null,
      latencyMs: decided?.latency_ms ?? null,
    };
  });
  await deps.learningStore.recordGateEvents(rows);
  return new Set();
}
