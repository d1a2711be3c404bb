// Event fields: one strict zod object per event type Warden produces — what rides beside the envelope (id, type, team,
// run, seq, time). Producers are typed by it (`emit<T>(type, fields: EventFields<T>)`), the queued union is built from it.
import { z } from "zod";

const str = z.string();
const nullableStr = z.string().nullable();
const count = z.number().int().min(0);
const hint = z.strictObject({ id: str, namespace: str, score: z.number() });
const tokens = z.strictObject({ in: z.number().min(0).optional(), out: z.number().min(0).optional() });

/** What every event about one task of a run names (runs/tx.ts `taskFields`). */
export const TaskRef = z.strictObject({ order_id: str, task_id: str, skill: nullableStr, steps: count });
export type TaskRef = z.infer<typeof TaskRef>;
const task = TaskRef.shape;
/** What a gate guards, when it guards a task (an order or its dead letter): its task fields, else nothing. */
const subject = { ...TaskRef.partial().shape };

/** The decision log row a `policy.decided` event carries (policy feature's `LoggedDecision`, without the digest). */
export const LoggedDecisionFields = z.strictObject({
  decision_id: z.string().min(1),
  team_id: str,
  run_id: nullableStr,
  task_id: nullableStr,
  inputs: z.record(z.string(), z.unknown()),
  inputs_digest: str,
  profile_version: z.number().int(),
  requested_mode: str,
  effective_mode: str,
  ceiling: str,
  failure_class: nullableStr,
  attempt_bucket: nullableStr,
  rule_id: str,
  raw_action: str,
  selected_action: str,
  created_at: count,
});

/** A run's order as its run.completed event summarises it (the first RUN_COMPLETED_ORDERS orders). */
export const CompletedOrder = z.strictObject({
  order_id: str,
  task_id: str,
  skill: nullableStr,
  status: str,
  attempts: count,
  outcome: nullableStr,
  failure_class: nullableStr,
  failure_classes: z.array(str),
});

const gateBase = { gate_id: str, op_id: str, policy_key: str, kind: str, rule_id: nullableStr };
const failedBase = {
  ...task,
  outcome: str,
  failure_class: nullableStr,
  tokens,
  latency_ms: count.optional(),
  attempt: z.number().int().min(1),
  op_id: str,
  /** ids of the memory hints the worker reported with the failure */
  hints: z.array(str),
};

/** The fields of each event type a run's Durable Object emits (ev:<seq>; the queued kinds also go to EVENTS). */
export const RUN_EVENT_FIELDS = {
  "run.started": z.strictObject({
    kind: str,
    goal: str,
    template: z.unknown(),
    skills: z.array(str),
    budget: z.unknown(),
    hints: z.array(str),
    policy_snapshot: z.unknown(),
    created_by: str,
  }),
  "run.running": z.strictObject({}),
  "run.reopened": z.strictObject({}),
  "task.created": z.strictObject({ ...task, goal: nullableStr, created_by: str }),
  "task.leased": z.strictObject({ ...task, lease_id: str, epoch: count, worker_id: str, holder: str, attempt: count }),
  "task.lease_expired": z.strictObject({
    ...task,
    lease_id: str,
    epoch: count,
    worker_id: str,
    expired_at: count,
    rescues: count,
  }),
  "task.requeued": z.strictObject({ ...task, reason: str, gate_id: str.optional(), strict: z.boolean().optional() }),
  "task.skipped": z.strictObject({ ...task, gate_id: str }),
  "task.revoked": z.strictObject({ ...task, lease_id: nullableStr, epoch: count.nullable(), reason: str }),
  "task.dead_lettered": z.strictObject({
    ...task,
    dead_letter_id: str,
    reason_code: str,
    failure_class: nullableStr,
    outcome: nullableStr,
  }),
  "dead_letter.reissued": z.strictObject({
    dead_letter_id: nullableStr,
    order_id: str,
    task_id: str,
    gate_id: str,
    reason_code: str,
    resolver: str,
    reviewed: z.boolean().optional(),
    patched: z.boolean().optional(),
  }),
  "approval.queued": z.strictObject({
    gate_id: str,
    op_id: str,
    policy_key: str,
    decision: str,
    approver: str,
    digest: nullableStr,
  }),
  "budget.breached": z.strictObject({ ...task, rule: str, tokens, budget: z.unknown() }),
  "budget.increased": z.strictObject({ gate_id: str, increase_pct: z.number(), from: z.unknown(), to: z.unknown() }),
  "policy.deploy_approved": z.strictObject({ target: str, version: z.number().int(), gate_id: str, approver: str }),
  "run.observer.memory_hints": z.strictObject({ query: str, hints: z.array(hint) }),
  "task.observer.memory_hints": z.strictObject({
    ...task,
    op_id: str,
    failure_class: nullableStr,
    query: str,
    hints: z.array(hint),
  }),
  "item.added": z.strictObject({ item_id: str, depends_on: z.array(str), added_by: str }),
  "item.released": z.strictObject({ item_id: str, depends_on: z.array(str) }),
  "item.skipped": z.strictObject({ item_id: str, because: str, state: str.optional() }),
  "item.cancelled": z.strictObject({ item_id: str, reason: str }),
  "item.reopened": z.strictObject({ item_id: str, because: str }),
  "task.failed": z.strictObject({
    ...failedBase,
    next: z.enum(["retry", "gate", "dead_letter", "replan"]),
    retry_after_ms: count.optional(),
    reason_code: str.optional(),
  }),
  "task.blocked": z.strictObject({
    ...task,
    reason: z.enum(["gate", "replan"]),
    failure_class: nullableStr,
    gate_id: str.optional(),
    policy_key: str.optional(),
  }),
  "task.completed": z.strictObject({
    ...task,
    used_mem_ids: z.array(str).optional(),
    outcome: str,
    failure_class: z.null(),
    tokens,
    latency_ms: count.optional(),
    attempt: z.number().int().min(1),
    op_id: str,
    next: z.literal("complete"),
  }),
  "run.completed": z.strictObject({
    outcome: str,
    reason: nullableStr,
    skills: z.array(str),
    tokens,
    steps: count,
    duration_ms: count,
    dead_letters: count,
    orders_total: count,
    orders: z.array(CompletedOrder),
  }),
  "gate.opened": z.strictObject({
    ...gateBase,
    ...subject,
    timeout_ms: count.nullable(),
    deadline_at: count.nullable(),
    opened_by: str,
    digest: nullableStr,
    rules_version: z.number().int().optional(),
    profile_version: z.number().int().optional(),
    context: z.record(z.string(), z.unknown()),
  }),
  "gate.decided": z.strictObject({
    ...gateBase,
    ...subject,
    subject_type: str,
    status: str,
    decision: str,
    decided_by: str,
    opened_by: str,
    latency_ms: count,
    outcome: str,
    channel: str,
  }),
  "gate.escalated": z.strictObject({
    ...gateBase,
    opened_at: count,
    level: z.union([z.literal(1), z.literal(2)]),
    due_at: count,
  }),
  "policy.decided": z.strictObject({ decision: LoggedDecisionFields }),
};
export type RunEventType = keyof typeof RUN_EVENT_FIELDS;
/** What a producer passes beside the envelope for an event of type T (run events). */
export type EventFields<T extends RunEventType> = z.input<(typeof RUN_EVENT_FIELDS)[T]>;
