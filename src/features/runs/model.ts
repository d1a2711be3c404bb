// Run state, commands and effects of the per-run reducer (pure data; no I/O).

import type { RunOutboxEvent } from "../../../contracts/internal-events";
import type { WorkItemV1 } from "../../../contracts/work-item.v1";
import type { WorkOrderV1 } from "../../../contracts/work-order.v1";
import type { AppError } from "../../errors";
import type { BoardItemState, BoardRow } from "../../ports/board";
import type { ActiveGateRules, DeployTarget, EarlyApproval, Gate } from "../gates/domain";
import type { MemoryHint } from "../memory/domain";
import type { RunActor, RunOpRequest, RunWriteOp } from "./operations";
import type { PolicySnapshot } from "./snapshot";
import type { RecordOp } from "./store/run-record-port";
import type { PolicyContext, StepDecision } from "./taxonomy";

export const LEASE_TTL_MS = 30_000;
export const HEARTBEAT_MS = 10_000;
/** a lease that expires this many times without a completion dead-letters the order */
export const MAX_RESCUES = 3;
/** however the failure classes alternate, an order gets at most this many attempts */
export const MAX_ORDER_ATTEMPTS = 10;
export const DEFAULT_BUDGET = { input_tokens: 800, output_tokens: 200 } as const;
/** GET /v1/runs shows the last 10 steps; the object keeps a few more for explain-exit */
export const STEPS_SHOWN = 10;
export const STEPS_KEPT = 50;
/** failed attempts whose memory hints a run keeps for its status and explain-exit (newest last) */
export const FAILURE_HINTS_KEPT = 10;

export type RunKind = "agent" | "control";
export type RunStatus = "PENDING" | "RUNNING" | "COMPLETE" | "DEAD_LETTER" | "STOPPED";
export type OrderStatus =
  | "QUEUED"
  | "LEASED"
  | "RETRY_WAIT"
  | "GATED"
  | "COMPLETE"
  | "SKIPPED"
  | "DEAD_LETTER"
  | "REPLAN"
  | "REVOKED";
export type Outcome = "PASS" | "DECLINE" | "ERROR";
export type NextKind = "complete" | "retry" | "gate" | "dead_letter" | "replan";

export type Actor = RunActor;

export type Budget = { input_tokens: number; output_tokens: number; total_tokens: number | null };

export type ExitInfo = { status: RunStatus; reason: string; at: number; terminal_step: Step | null };

export type RunMeta = {
  run_id: string;
  team_id: string;
  kind: RunKind;
  goal: string;
  template: string | null;
  skills: string[];
  status: RunStatus;
  created_by: string;
  created_at: number;
  updated_at: number;
  budget: Budget;
  /** the budget the run started with: increases are cumulative against it (absent on runs stored before it existed) */
  budget_base?: Budget;
  /** the sum of every approved budget increase, in percent of budget_base */
  budget_increase_pct?: number;
  used: { tokens_in: number; tokens_out: number };
  /** steps refused over a budget (budget.breached), the one meaning of a breached budget (absent on older runs: 0) */
  budget_breaches?: number;
  /** attempts completed over the whole run */
  steps_total: number;
  hints: MemoryHint[];
  /** task.observer.memory_hints of the last FAILURE_HINTS_KEPT failed attempts that found any (absent on older runs) */
  failure_hints?: FailureHints[];
  snapshot: PolicySnapshot;
  exit: ExitInfo | null;
  /** seq of the run's latest run.completed event (its `ev:` key): the learning reconciliation re-sends it when the
   * queue lost it (absent on runs ended before it existed) */
  completion_seq?: number;
  /** last event sequence number (event ids derive from it) */
  seq: number;
  /** orders created so far (creation index) */
  order_count: number;
  /** the last STEPS_KEPT steps, oldest first */
  steps: Step[];
};

/** What memory answered for one failed attempt (YARLI task.observer.memory_hints), kept for the run's views. */
export type FailureHints = {
  order_id: string;
  task_id: string;
  op_id: string;
  failure_class: string | null;
  at: number;
  hints: MemoryHint[];
};

export type Lease = {
  lease_id: string;
  epoch: number;
  worker_id: string;
  holder: string;
  /** the holder token's persona_id, when it names one */
  persona?: string;
  granted_at: number;
  expires_at: number;
};

/** One lease in an order's lane: who held it, at which epoch, and how it ended. */
export type LeaseRecord = {
  epoch: number;
  holder: string;
  worker_id: string;
  granted_at: number;
  /** completed | expired (rescued) | revoked (run stopped); null while held */
  ended: "completed" | "expired" | "revoked" | null;
  ended_at: number | null;
  /** heartbeats received while it was held */
  heartbeats?: number;
};
/** leases kept per order: the lane shows the most recent ones */
export const LEASES_KEPT = 20;

export type Order = {
  order_id: string;
  task_id: string;
  goal: string;
  skill: string | null;
  body: WorkOrderV1;
  index: number;
  status: OrderStatus;
  created_at: number;
  updated_at: number;
  /** completions recorded (the next one is attempt `attempts + 1`) */
  attempts: number;
  /** failed attempts per failure class: the taxonomy's retry allowances count per class */
  failures: Record<string, number>;
  /** failure classes of the failed attempts, oldest first (the learning consumer learns retry recovery from it) */
  failure_history: string[];
  rescues: number;
  /** epoch of the newest lease (0 before the first) */
  epoch: number;
  lease: Lease | null;
  not_before: number | null;
  gate_id: string | null;
  /** the next attempt is a stricter re-prompt (after a schema_invalid gate) */
  strict: boolean;
  /** reissued from a dead letter: one attempt only */
  reissued: boolean;
  /** who approved the dead_letter_review that reissued it (absent otherwise) */
  reviewed_by?: string;
  /** the corrected input of the last edit and retry: the merge patch, who applied it with which review gate, when */
  input_patch?: { patch: Record<string, unknown>; by: string; at: number; gate_id: string };
  dead_letter_id: string | null;
  /** every lease this order was granted, oldest first (the trace's lease lane); absent on orders stored before it */
  leases?: LeaseRecord[];
  last: { op_id: string; outcome: Outcome; failure_class: string | null; next: NextKind } | null;
  output: unknown;
  /** tokens (in + out) reported by the order's completions (absent on orders stored before it) */
  tokens?: number;
};

export type CompleteReply = {
  next: NextKind;
  attempt: number;
  retry_after_ms?: number;
  gate_id?: string;
  dead_letter_id?: string;
  refused?: string;
  hints?: MemoryHint[];
  decision?: {
    decision_id: string;
    rule_id: string;
    action: string;
    selected_action: string;
    memrl_mode: string;
    failure_class: string | null;
    attempt_bucket: string | null;
    profile_version: number;
  };
};

export type OpRecord = { op_id: string; order_id: string; digest: string; reply: CompleteReply };

export type DeadLetter = {
  id: string;
  op_id: string;
  order_id: string;
  task_id: string;
  reason_code: string;
  failure_class: string | null;
  created_at: number;
  /** event sequence when it was created: the order dead letters happened in */
  seq: number;
  resolved_at: number | null;
  resolver: string | null;
};

export type Step = {
  seq: number;
  at: number;
  order_id: string;
  task_id: string;
  op_id: string;
  attempt: number;
  outcome: Outcome | "LEASE_EXPIRED";
  failure_class: string | null;
  next: NextKind;
  retry_after_ms?: number;
  gate_id?: string;
  dead_letter_id?: string;
  refused?: string;
  tokens_in: number;
  tokens_out: number;
  decision?: StepDecision & { decision_id: string };
  /** the lease holder's subject: the agent that made (or lost) the attempt */
  holder?: string;
  /** artifacts the completion cited as evidence (src/features/artifacts) */
  artifacts?: string[];
};

/** What an item's own record says; once released, its order says the rest (see itemState in items.ts). */
export type ItemStored = "waiting" | "released" | "skipped" | "cancelled";
/** The item states callers see: waiting → ready → leased → passed | dead_letter | skipped (cancelled by stop). */
export type ItemState = BoardItemState;

/** One node of the run's declared work graph; released as the order with the same id once its deps passed. */
export type Item = {
  item_id: string;
  body: WorkItemV1;
  /** creation index across every batch of the run (release and views go in this order) */
  index: number;
  stored: ItemStored;
  created_at: number;
  updated_at: number;
  released_at: number | null;
  /** the dependency whose dead letter (or skip) skipped this item */
  skipped_by: string | null;
};

export type RunState = {
  run: RunMeta;
  /** the declared work graph (absent items = a run without a graph) */
  items: Readonly<Record<string, Item>>;
  orders: Readonly<Record<string, Order>>;
  gates: Readonly<Record<string, Gate>>;
  early: Readonly<Record<string, EarlyApproval>>;
  ops: Readonly<Record<string, OpRecord>>;
  deadLetters: Readonly<Record<string, DeadLetter>>;
};

export type { EarlyApproval, Gate, GateDecision, GateStatus, GateSubject } from "../gates/domain";

// ---- commands ----------------------------------------------------------------------------

export type CreateRun = CommandOf<"create">;

/**
 * What the engine adds to an operation's request before reducing it (ids, digests, policy, rules, hints). Only the
 * operations that need something have an entry (and a preparer in engine.ts); the others' command is their request.
 */
type Prepared = {
  create: { kind: RunKind; hints: MemoryHint[]; snapshot: PolicySnapshot };
  lease: { lease_id: string };
  complete: {
    /** digest of the request body, for op_id idempotency */
    digest: string;
    policy: PolicyContext;
    gate_rules: ActiveGateRules;
    /** memory hints for a failed attempt (HintsProvider.forTaskFailure), best-effort */
    failure_hints: MemoryHint[];
    /** the team's escalation timings for a gate this completion opens (RunEngineNeeds.escalationTimings) */
    escalate_after_ms?: [number, number] | null;
  };
  open_gate: { gate_rules: ActiveGateRules; escalate_after_ms?: [number, number] | null };
  /** the team's deploy approvers, read for a control run's decisions only (empty: none set, or not a control run) */
  decide_gate: { deploy_approvers: string[] };
  /** nonce: the random part of the deploy gate's op_id */
  propose_deploy: { run_id: string; nonce: string; escalate_after_ms?: [number, number] | null };
};

/** The reducer command of one write operation: its request from the operations table plus what was prepared. */
export type CommandOf<K extends RunWriteOp> = { type: K; actor: RunActor } & Omit<
  RunOpRequest<K>,
  keyof PreparedOf<K>
> &
  PreparedOf<K>;
/** The write operations with something to prepare: each has a preparer in engine.ts (tsc demands it). */
export type PreparedOp = keyof Prepared & RunWriteOp;
type PreparedOf<K extends RunWriteOp> = K extends PreparedOp ? Prepared[K] : Record<never, never>;
export type Command = { [K in RunWriteOp]: CommandOf<K> }[RunWriteOp] | { type: "tick" };

// ---- effects -----------------------------------------------------------------------------

/** An event of a run (kept in its event log; the queued kinds also go to EVENTS), with its sequence number in the run. */
export type WardenRunEvent = RunOutboxEvent;

export type { RecordOp };

export type Activation = { target: DeployTarget; team_id: string; version: number };

export type { BoardRow };

export type Effects = {
  events: WardenRunEvent[];
  records: RecordOp[];
  activations: Activation[];
  /** items whose dispatch view changed (the board's copy) */
  board: BoardRow[];
};

export type Reply = Record<string, unknown>;

/** An expected failure of a command: nothing changed, the error goes to the caller. */
export type Failure = { ok: false; error: AppError };

export type ReduceResult<R = Reply> = { ok: true; state: RunState; effects: Effects; reply: R } | Failure;
