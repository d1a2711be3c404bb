// Internal events: the zod schema of every message on the EVENTS queue, one union member per producer and kind.
import { z } from "zod";

/**
 * Every member keeps unknown fields (z.looseObject): producers may add fields without breaking the consumer, and the
 * consumer's handlers read the fields they need with their own, stricter parsers. What is fixed here is the envelope
 * (id, type, team, run, time) and the fields the durable records (audit rows, decision log) are built from.
 */
const envelope = {
  /** the idempotency key: every consumer applies an event_id at most once */
  event_id: z.string().min(1).max(256),
  team_id: z.string().min(1).max(128),
  occurred_at: z.number().int().min(0),
};
const ruleIds = z.array(z.string().min(1).max(128)).max(64);
const refusalCode = z.enum(["redaction_required", "pii_detected", "rejected"]);

/**
 * Run trace events: a run's Durable Object keeps each one in its own event log (ev:<seq>, shown by the run views).
 * They never go on the EVENTS queue: nothing there would make them more durable.
 */
export const RUN_TRACE_EVENT_TYPES = [
  "run.started",
  "run.running",
  "run.reopened",
  "task.created",
  "task.leased",
  "task.lease_expired",
  "task.requeued",
  "task.skipped",
  "task.revoked",
  "task.dead_lettered",
  "dead_letter.reissued",
  "approval.queued",
  "budget.breached",
  "budget.increased",
  "policy.deploy_approved",
  // YARLI observer outputs (hints only, no side effects): what memory answered at run start and on a failed attempt
  "run.observer.memory_hints",
  "task.observer.memory_hints",
  // declared work graphs: an item added, released as an order, skipped behind a dead letter, cancelled by stop,
  // waiting again once the dead letter that skipped it was reissued
  "item.added",
  "item.released",
  "item.skipped",
  "item.cancelled",
  "item.reopened",
] as const;

/** A task's outcome: from a run's Durable Object (with seq) or from POST /v1/events (source "api"). */
export const TASK_SIGNAL_EVENT_TYPES = ["task.failed", "task.blocked", "task.completed"] as const;
export const TaskSignalEvent = z.looseObject({
  ...envelope,
  type: z.enum(TASK_SIGNAL_EVENT_TYPES),
  run_id: z.string().min(1),
  seq: z.number().int().min(0).optional(),
});

/** A run's end with its order summaries (Durable Object) or task outcomes (POST /v1/events). */
export const RunCompletedEvent = z.looseObject({
  ...envelope,
  type: z.literal("run.completed"),
  run_id: z.string().min(1),
  seq: z.number().int().min(0).optional(),
});

/**
 * A gate opened, decided or escalated (a hard gate left open: level 1 re-ping, level 2 escalation target) inside a run,
 * or acknowledged through the API or CLI (POST /v1/gates/:gate_id/ack; published by the gates feature, not the run).
 */
export const GateEvent = z.looseObject({
  ...envelope,
  type: z.enum(["gate.opened", "gate.decided", "gate.escalated", "gate.acknowledged"]),
  run_id: z.string().min(1),
  /** the run's event sequence number; consumers do not rely on it */
  seq: z.number().int().min(0).optional(),
});

/** One policy decision for the decision log: from POST /v1/policy/decide or from a run's completion step. */
export const PolicyDecidedEvent = z.looseObject({
  ...envelope,
  type: z.literal("policy.decided"),
  run_id: z.string().nullable().optional(),
  decision: z.looseObject({ decision_id: z.string().min(1) }),
});

/** The rollback sweep lowered a team's mode ceiling because a trigger's metric crossed its threshold. */
export const PolicyRollbackEvent = z.looseObject({
  ...envelope,
  type: z.literal("policy.rollback"),
  run_id: z.null().optional(),
  trigger_id: z.string(),
  metric: z.string(),
  value: z.number().nullable(),
  sample: z.number(),
  threshold: z.string(),
  from: z.string(),
  to: z.string(),
  verification_command: z.string().optional(),
});

/** A memory write refused by the write guard (POST /v1/memory*, /v1/sessions/events): rule ids only, never values. */
export const MemoryStoreFailedEvent = z.looseObject({
  ...envelope,
  type: z.literal("memory_store_failed"),
  run_id: z.string().nullable().optional(),
  /** the use-case that refused: memory.write, memory.bulk, memory.import, session.event */
  source: z.string().min(1).max(64),
  code: refusalCode,
  rule_ids: ruleIds,
  scope: z.string().optional(),
  class: z.string().optional(),
  /** the refused items' positions in a bulk or import request */
  items: z.array(z.number().int().min(0)).optional(),
});

/** The learning consumer's memory of a failed or blocked task was refused by the write guard. */
export const TaskMemoryStoreFailedEvent = z.looseObject({
  ...envelope,
  type: z.literal("task.memory_store_failed"),
  run_id: z.string().min(1),
  source_event_id: z.string().min(1),
  task_id: z.string().min(1),
  namespace: z.string(),
  class: z.enum(["semantic", "episodic"]),
  code: z.string(),
  rule_ids: ruleIds,
});

export const InternalEvent = z.discriminatedUnion("type", [
  TaskSignalEvent,
  RunCompletedEvent,
  GateEvent,
  PolicyDecidedEvent,
  PolicyRollbackEvent,
  MemoryStoreFailedEvent,
  TaskMemoryStoreFailedEvent,
]);
export type InternalEvent = z.infer<typeof InternalEvent>;
export type InternalEventType = InternalEvent["type"];
export type RunTraceEventType = (typeof RUN_TRACE_EVENT_TYPES)[number];
/** Every type a run's Durable Object emits. */
export type RunEventType =
  | RunTraceEventType
  | (typeof TASK_SIGNAL_EVENT_TYPES)[number]
  | "run.completed"
  | "gate.opened"
  | "gate.decided"
  | "gate.escalated"
  | "policy.decided";
/** The refused-write events: each becomes an audit row the team can list (GET /v1/audit). */
export const REFUSED_WRITE_EVENT_TYPES = ["memory_store_failed", "task.memory_store_failed"] as const;
export type RefusedWriteEvent = z.infer<typeof MemoryStoreFailedEvent> | z.infer<typeof TaskMemoryStoreFailedEvent>;

/** An event a run's Durable Object emits (kept in its event log); only the queued kinds also go to EVENTS. */
export type RunOutboxEvent<T extends RunEventType = RunEventType> = {
  event_id: string;
  type: T;
  team_id: string;
  run_id: string;
  seq: number;
  occurred_at: number;
  [field: string]: unknown;
};
/** The run events the EVENTS queue carries (every one has a consumer that writes something durable). */
export type QueuedRunEvent = RunOutboxEvent<Exclude<RunEventType, RunTraceEventType>>;
export const isQueuedRunEvent = (e: RunOutboxEvent): e is QueuedRunEvent =>
  !(RUN_TRACE_EVENT_TYPES as readonly string[]).includes(e.type);
