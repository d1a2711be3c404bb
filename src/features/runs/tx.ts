// The reducer's copy-on-write transaction and the helpers every step shares (pure: no I/O, no clock).
import type { EventFields, RunEventType, TaskRef } from "../../../contracts/event-fields";
import type { AppError } from "../../errors";
import { stableId } from "../../lib/hash";
import { own, putOwn } from "../../lib/own";
import { boardRow } from "./item-state";
import type {
  Activation,
  CommandOf,
  DeadLetter,
  EarlyApproval,
  Effects,
  Failure,
  Gate,
  Item,
  OpRecord,
  Order,
  RecordOp,
  ReduceResult,
  RunMeta,
  RunState,
  RunStatus,
  Step,
  WardenRunEvent,
} from "./model";
import { STEPS_KEPT } from "./model";
import type { RunOpReply, RunWriteOp } from "./operations";

/** The write operations that act on an existing run (create and propose_deploy start their own). */
export type StepOp = Exclude<RunWriteOp, "create" | "propose_deploy">;
/** A step over an existing run's transaction: its reply, or an expected failure (then nothing changes). */
export type RunStep<K extends StepOp> = (tx: Tx, cmd: CommandOf<K>) => Failure | RunOpReply<K>;
/** One concern file's steps by operation; reducer.ts joins the tables and tsc checks every StepOp has a step. */
export type StepTable = { [K in StepOp]?: RunStep<K> };

export const notFound = (message: string): { ok: false; error: AppError } => ({
  ok: false,
  error: { code: "not_found", message },
});
export const conflict = (message: string): { ok: false; error: AppError } => ({
  ok: false,
  error: { code: "conflict", message },
});
export const forbidden = (message: string): { ok: false; error: AppError } => ({
  ok: false,
  error: { code: "forbidden", message },
});
export const rejected = (message: string, ruleIds?: string[]): { ok: false; error: AppError } => ({
  ok: false,
  error: { code: "rejected", message, ...(ruleIds ? { ruleIds } : {}) },
});

/** Copy-on-write transaction over one state: maps are copied once, on first write. */
export class Tx {
  run: RunMeta;
  private items: Record<string, Item> | null = null;
  private orders: Record<string, Order> | null = null;
  private gates: Record<string, Gate> | null = null;
  private early: Record<string, EarlyApproval> | null = null;
  private ops: Record<string, OpRecord> | null = null;
  private dls: Record<string, DeadLetter> | null = null;
  readonly effects: Effects = { events: [], records: [], activations: [], board: [] };

  constructor(
    private readonly base: RunState,
    readonly now: number,
  ) {
    this.run = base.run;
  }

  item = (id: string): Item | undefined => own(this.items ?? this.base.items, id);
  allItems = (): Item[] => Object.values(this.items ?? this.base.items);
  order = (id: string): Order | undefined => own(this.orders ?? this.base.orders, id);
  gate = (id: string): Gate | undefined => own(this.gates ?? this.base.gates, id);
  earlyFor = (id: string): EarlyApproval | undefined => own(this.early ?? this.base.early, id);
  deadLetter = (id: string): DeadLetter | undefined => own(this.dls ?? this.base.deadLetters, id);
  op = (id: string): OpRecord | undefined => own(this.ops ?? this.base.ops, id);
  allOrders = (): Order[] => Object.values(this.orders ?? this.base.orders);
  allGates = (): Gate[] => Object.values(this.gates ?? this.base.gates);
  allDeadLetters = (): DeadLetter[] => Object.values(this.dls ?? this.base.deadLetters);

  patchRun(patch: Partial<RunMeta>) {
    this.run = { ...this.run, ...patch, updated_at: this.now };
  }
  putItem(item: Item) {
    this.items ??= { ...this.base.items };
    putOwn(this.items, item.item_id, { ...item, updated_at: this.now });
  }
  putOrder(order: Order) {
    this.orders ??= { ...this.base.orders };
    const before = own(this.orders, order.order_id);
    const next = { ...order, updated_at: this.now };
    putOwn(this.orders, order.order_id, next);
    if (!before || before.status !== next.status) this.record({ t: "order", row: orderRow(this.run, next) });
  }
  putGate(gate: Gate) {
    this.gates ??= { ...this.base.gates };
    const before = own(this.gates, gate.gate_id);
    putOwn(this.gates, gate.gate_id, gate);
    if (!before || before.status !== gate.status) this.record({ t: "gate", row: gateRow(this.run, gate, this.now) });
  }
  putEarly(e: EarlyApproval) {
    this.early ??= { ...this.base.early };
    putOwn(this.early, e.gate_id, e);
  }
  dropEarly(id: string) {
    if (!this.earlyFor(id)) return;
    this.early ??= { ...this.base.early };
    delete this.early[id];
  }
  putOp(op: OpRecord) {
    this.ops ??= { ...this.base.ops };
    putOwn(this.ops, op.op_id, op);
  }
  putDeadLetter(dl: DeadLetter) {
    this.dls ??= { ...this.base.deadLetters };
    putOwn(this.dls, dl.id, dl);
  }

  /** Appends an event to the run's log; its fields are checked against contracts/event-fields.ts by tsc. */
  emit<T extends RunEventType>(type: T, fields: EventFields<T>): WardenRunEvent {
    const seq = this.run.seq + 1;
    this.run = { ...this.run, seq };
    const event: WardenRunEvent = {
      ...fields,
      event_id: `evt_${this.run.run_id}_${seq}`,
      type,
      team_id: this.run.team_id,
      run_id: this.run.run_id,
      seq,
      occurred_at: this.now,
    };
    this.effects.events.push(event);
    return event;
  }
  record(op: RecordOp) {
    this.effects.records.push(op);
  }
  activate(a: Activation) {
    this.effects.activations.push(a);
  }
  audit(actor: string, action: string, subjectType: string, subjectId: string, metadata: unknown) {
    this.record({
      t: "audit",
      row: {
        id: stableId("aud", this.run.run_id, this.run.seq, action, subjectId),
        team_id: this.run.team_id,
        actor,
        action,
        subject_type: subjectType,
        subject_id: subjectId,
        metadata,
        created_at: this.now,
      },
    });
  }
  setStatus(status: RunStatus) {
    if (this.run.status === status) return;
    this.patchRun({ status });
    this.record({ t: "run", row: runRow(this.run) });
  }
  addStep(step: Omit<Step, "seq" | "at">): Step {
    const full: Step = { ...step, seq: this.run.seq, at: this.now };
    const steps = [...this.run.steps, full];
    this.patchRun({ steps: steps.length > STEPS_KEPT ? steps.slice(steps.length - STEPS_KEPT) : steps });
    return full;
  }

  result<R>(reply: R): ReduceResult<R> {
    const state: RunState = {
      run: this.run,
      items: this.items ?? this.base.items,
      orders: this.orders ?? this.base.orders,
      gates: this.gates ?? this.base.gates,
      early: this.early ?? this.base.early,
      ops: this.ops ?? this.base.ops,
      deadLetters: this.dls ?? this.base.deadLetters,
    };
    this.effects.board = this.changedBoardRows();
    return { ok: true, state, effects: this.effects, reply };
  }

  /** The board's copy of every item whose record or order changed in this transaction (its dispatch view). */
  private changedBoardRows() {
    const items = this.items ?? this.base.items;
    if (this.items === null && this.orders === null) return [];
    const ids = new Set<string>();
    for (const id of Object.keys(this.items ?? {})) if (own(this.base.items, id) !== own(items, id)) ids.add(id);
    for (const id of Object.keys(this.orders ?? {}))
      if (own(items, id) && own(this.base.orders, id) !== this.order(id)) ids.add(id);
    return [...ids].map((id) => boardRow(own(items, id) as Item, this.order(id)));
  }
}

export const runRow = (run: RunMeta) => ({
  run_id: run.run_id,
  team_id: run.team_id,
  goal: run.goal,
  status: run.status,
  kind: run.kind,
  created_at: run.created_at,
  updated_at: run.updated_at,
});

export const orderRow = (run: RunMeta, o: Order) => ({
  order_id: o.order_id,
  run_id: run.run_id,
  team_id: run.team_id,
  task_id: o.task_id,
  goal: o.goal,
  status: o.status,
  body: o.body,
  skill: skillOf(run, o),
  created_at: o.created_at,
  updated_at: o.updated_at,
});

/** the gate's row in the team-wide gate index (GET /v1/gates) */
export const gateRow = (run: RunMeta, g: Gate, now: number) => ({
  gate_id: g.gate_id,
  team_id: run.team_id,
  run_id: run.run_id,
  op_id: g.op_id,
  policy_key: g.policy_key,
  kind: g.kind,
  status: g.status,
  opened_by: g.opened_by,
  opened_at: g.opened_at,
  deadline_at: g.deadline_at,
  decided_by: g.decided_by,
  decided_at: g.decided_at,
  outcome: g.outcome ?? null,
  updated_at: now,
});

export const skillOf = (run: RunMeta, order: Order): string | null =>
  order.skill ?? (run.skills.length === 1 ? (run.skills[0] as string) : null);

export function taskFields(run: RunMeta, o: Order): TaskRef {
  return { order_id: o.order_id, task_id: o.task_id, skill: skillOf(run, o), steps: o.attempts };
}

export function deadLetterOrder(
  tx: Tx,
  order: Order,
  opId: string,
  reasonCode: string,
  failureClass: string | null,
  step: Step | null,
): DeadLetter {
  const dl: DeadLetter = {
    id: stableId("dl", tx.run.run_id, opId, order.order_id),
    op_id: opId,
    order_id: order.order_id,
    task_id: order.task_id,
    reason_code: reasonCode,
    failure_class: failureClass,
    created_at: tx.now,
    seq: tx.run.seq,
    resolved_at: null,
    resolver: null,
  };
  tx.putDeadLetter(dl);
  tx.putOrder({ ...order, status: "DEAD_LETTER", lease: null, gate_id: null, dead_letter_id: dl.id });
  if (step && step.dead_letter_id === undefined) {
    const steps = tx.run.steps.map((s) => (s === step ? { ...s, dead_letter_id: dl.id } : s));
    tx.patchRun({ steps });
  }
  tx.record({
    t: "dead_letter",
    row: {
      id: dl.id,
      team_id: tx.run.team_id,
      run_id: tx.run.run_id,
      op_id: opId,
      reason_code: reasonCode,
      payload: {
        order_id: order.order_id,
        task_id: order.task_id,
        failure_class: failureClass,
        attempts: order.attempts,
        goal: order.goal,
      },
      created_at: tx.now,
    },
  });
  tx.emit("task.dead_lettered", {
    ...taskFields(tx.run, order),
    dead_letter_id: dl.id,
    reason_code: reasonCode,
    failure_class: failureClass,
    outcome: order.last?.outcome ?? null,
  });
  return dl;
}
