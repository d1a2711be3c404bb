// Internal events: the zod schema of every message on the EVENTS queue, one union member per producer and kind.
import { z } from "zod";
import { RUN_EVENT_FIELDS, type RunEventType } from "./event-fields";

export type { EventFields, RunEventType } from "./event-fields";

/**
 * What Warden alone produces is strict (z.strictObject: a field the schema does not name fails the parse, and the
 * producers are typed by the same schema, so tsc catches it first). The kinds an agent may also send through
 * POST /v1/events (task.*, run.completed) are loose: they hold both producers' fields side by side.
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

/** Fields of an event Warden's run emits, beside the run envelope: strict, so an unknown field fails the parse. */
const runEvent = <T extends RunEventType, S extends z.ZodRawShape>(type: T, fields: z.ZodObject<S>) =>
  z.strictObject({ ...envelope, ...fields.shape, type: z.literal(type), ...runEnvelope });
const runEnvelope = { run_id: z.string().min(1), seq: z.number().int().min(0) };

/**
 * A task's outcome: from a run's Durable Object (with seq, its `EventFields`) or from POST /v1/events (source "api",
 * checked by TaskEventV1 before it is queued). Loose: the two producers' fields side by side, only task_id required.
 */
export const TASK_SIGNAL_EVENT_TYPES = ["task.failed", "task.blocked", "task.completed"] as const;
const bucketLike = z.string().min(1).max(64);
const taskSignalFields = {
  ...envelope,
  run_id: z.string().min(1).max(256),
  seq: z.number().int().min(0).optional(),
  task_id: z.string().min(1).max(256),
  order_id: z.string().min(1).max(256).optional(),
  task_key: z.string().min(1).max(256).optional(),
  project_id: z.string().min(1).max(128).optional(),
  reason: bucketLike.optional(),
  exit_code_bucket: bucketLike.optional(),
  skill: z.string().min(1).max(128).nullable().optional(),
  context: z.string().max(256).optional(),
  failure_class: bucketLike.nullable().optional(),
  outcome: z.string().max(32).nullable().optional(),
  attempt: z.number().int().min(1).max(100_000).optional(),
  cost_units: z.number().min(0).optional(),
  tokens: z.object({ in: z.number().min(0).optional(), out: z.number().min(0).optional() }).optional(),
  steps: z.number().int().min(0).max(10_000_000).optional(),
  detail: z.string().max(500).optional(),
};
export const TaskFailedEvent = z.looseObject({ ...taskSignalFields, type: z.literal("task.failed") });
export const TaskBlockedEvent = z.looseObject({ ...taskSignalFields, type: z.literal("task.blocked") });
export const TaskCompletedEvent = z.looseObject({ ...taskSignalFields, type: z.literal("task.completed") });
export type TaskSignalEvent = z.infer<typeof TaskFailedEvent | typeof TaskBlockedEvent | typeof TaskCompletedEvent>;

/** One task's outcome in an agent's run.completed (POST /v1/events, TaskEventV1's RunTaskOutcomeV1). */
const ApiTaskOutcome = z.looseObject({
  task_id: z.string().min(1).max(256).optional(),
  skill: z.string().min(1).max(128),
  outcome: z.enum(["success", "failure"]),
  failure_class: bucketLike.optional(),
  failure_classes: z.array(bucketLike).max(32).optional(),
  attempts: z.number().int().min(1).max(100_000).optional(),
  cost_units: z.number().min(0).optional(),
  steps: z.number().int().min(0).max(10_000_000).optional(),
  context: z.string().max(256).optional(),
});

/**
 * A run's end: its order summaries and token use (Durable Object; an event over the queue's size limit comes as its
 * envelope with truncated: true) or an agent's task outcomes or one skill's outcome (POST /v1/events). Loose.
 */
export const RunCompletedEvent = z.looseObject({
  ...envelope,
  type: z.literal("run.completed"),
  run_id: z.string().min(1).max(256),
  seq: z.number().int().min(0).optional(),
  truncated: z.literal(true).optional(),
  // agents: one skill, or per-task outcomes
  skill: z.string().min(1).max(128).optional(),
  outcome: z.string().max(32).optional(),
  failure_class: bucketLike.optional(),
  cost_units: z.number().min(0).optional(),
  steps: z.number().int().min(0).max(10_000_000).optional(),
  context: z.string().max(256).optional(),
  tasks: z.array(ApiTaskOutcome).max(500).optional(),
  // the run's Durable Object: its orders and the run's token use
  orders: z.array(RUN_EVENT_FIELDS["run.completed"].shape.orders.element).max(5000).optional(),
  tokens: z.object({ in: z.number().min(0).optional(), out: z.number().min(0).optional() }).optional(),
});
export type RunCompletedEvent = z.infer<typeof RunCompletedEvent>;

/** A gate opened, decided or escalated (a hard gate left open: level 1 re-ping, level 2 escalation target) in a run. */
export const GateOpenedEvent = runEvent("gate.opened", RUN_EVENT_FIELDS["gate.opened"]);
export const GateDecidedEvent = runEvent("gate.decided", RUN_EVENT_FIELDS["gate.decided"]);
export const GateEscalatedEvent = runEvent("gate.escalated", RUN_EVENT_FIELDS["gate.escalated"]);
/** A gate acknowledged through the API or CLI (POST /v1/gates/:gate_id/ack; published by gates, not the run). */
export const GateAcknowledgedEvent = z.strictObject({
  ...envelope,
  type: z.literal("gate.acknowledged"),
  run_id: z.string().min(1),
  gate_id: z.string(),
  op_id: z.string(),
  policy_key: z.string(),
  kind: z.string(),
  rule_id: z.string().nullable(),
  opened_by: z.string(),
  deadline_at: z.number().nullable(),
  digest: z.string().nullable(),
  context: z.record(z.string(), z.unknown()).optional(),
  acked_by: z.string(),
  acked_at: z.number().int().min(0),
  resolve_due_at: z.number().nullable(),
  channel: z.string(),
});
export type GateEvent = z.infer<
  typeof GateOpenedEvent | typeof GateDecidedEvent | typeof GateEscalatedEvent | typeof GateAcknowledgedEvent
>;

/** One policy decision for the decision log: from POST /v1/policy/decide (no run envelope) or a run's completion. */
export const PolicyDecidedEvent = z.strictObject({
  ...envelope,
  ...RUN_EVENT_FIELDS["policy.decided"].shape,
  type: z.literal("policy.decided"),
  run_id: z.string().min(1).optional(),
  seq: z.number().int().min(0).optional(),
});

/** The rollback sweep lowered a team's mode ceiling because a trigger's metric crossed its threshold. */
export const PolicyRollbackEvent = z.strictObject({
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
export const MemoryStoreFailedEvent = z.strictObject({
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
  /** a refused session episode's kind (source sessions.events) */
  session_kind: z.string().optional(),
});

/** The learning consumer's memory of a failed or blocked task was refused by the write guard. */
export const TaskMemoryStoreFailedEvent = z.strictObject({
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

/**
 * A run event over the queue's size limit goes out as its envelope (storage-layout `fitForQueue`). The loose kinds
 * (task.*, run.completed) parse as themselves; a strict kind parses as this, and only subscribers that can act on an
 * envelope receive it.
 */
export const TruncatedRunEvent = z.strictObject({
  ...envelope,
  type: z.enum(["gate.opened", "gate.decided", "gate.escalated", "policy.decided"]),
  ...runEnvelope,
  truncated: z.literal(true),
});
export type TruncatedRunEvent = z.infer<typeof TruncatedRunEvent>;

const FullEvent = z.discriminatedUnion("type", [
  TaskFailedEvent,
  TaskBlockedEvent,
  TaskCompletedEvent,
  RunCompletedEvent,
  GateOpenedEvent,
  GateDecidedEvent,
  GateEscalatedEvent,
  GateAcknowledgedEvent,
  PolicyDecidedEvent,
  PolicyRollbackEvent,
  MemoryStoreFailedEvent,
  TaskMemoryStoreFailedEvent,
]);
/** Every message on the EVENTS queue: the consumer parses each one once with this union. */
export const InternalEvent = z.union([TruncatedRunEvent, FullEvent]);
export type InternalEvent = z.infer<typeof InternalEvent>;
export type InternalEventType = z.infer<typeof FullEvent>["type"];
/** The member of the union an event of type T parses as (truncated envelopes aside). */
export type EventOf<T extends InternalEventType> = EventsByType[T];
type EventsByType = { [E in z.infer<typeof FullEvent> as E["type"]]: E };
/** A parsed message other than a truncated envelope: what subscribers receive. */
export type QueuedEvent = z.infer<typeof FullEvent>;
/** What producers hand the queue (the union's input). */
export type InternalEventInput = z.input<typeof FullEvent> | TruncatedRunEvent;
/** A strict kind's envelope without its fields (the loose kinds parse as themselves, `truncated` among their fields). */
export const isTruncatedRunEvent = (e: InternalEvent): e is TruncatedRunEvent =>
  "truncated" in e &&
  e.truncated === true &&
  (TruncatedRunEvent.shape.type.options as readonly string[]).includes(e.type);
/** What a producer hands the queue for type T (the union's input: strict kinds admit no unknown field). */
export type EventInput<T extends InternalEventType> = Extract<z.input<typeof FullEvent>, { type: T }>;
export type RunTraceEventType = (typeof RUN_TRACE_EVENT_TYPES)[number];
/** tsc: every type a run emits is a trace event or a queued one, and has its fields in RUN_EVENT_FIELDS. */
type QueuedRunType = Exclude<RunEventType, RunTraceEventType>;
export const RUN_TYPES_COVERED: [RunTraceEventType | QueuedRunType] extends [RunEventType]
  ? QueuedRunType extends InternalEventType
    ? true
    : false
  : false = true;
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
