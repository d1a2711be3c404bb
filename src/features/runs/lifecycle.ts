// Run lifecycle steps of the reducer (pure): create a run, who may touch it, its timers (tick), stop, and settling
// it (a run ends when every order is settled and no gate is pending).
import type { AppError } from "../../errors";
import { STOP_ABORT_REASON } from "../../lib/gate-outcome";
import { applyDecision, DEAD_LETTER_REVIEW, escalate, nextEscalation } from "../gates/domain";
import { gateHost } from "./gate-ops";
import { cancelItems, putItems, releaseItems, summaries } from "./items";
import { laneEnded } from "./lease-lane";
import type {
  Actor,
  CommandOf,
  CreateRun,
  Failure,
  Gate,
  Order,
  OrderStatus,
  ReduceResult,
  RunMeta,
  RunState,
  RunStatus,
} from "./model";
import type { RunOpReply } from "./operations";
import { rescue } from "./orders";
import type { StepTable } from "./tx";
import { rejected, runRow, skillOf, Tx, taskFields } from "./tx";

export const RUN_COMPLETED_ORDERS = 200;

export const TERMINAL_ORDER: ReadonlySet<OrderStatus> = new Set(["COMPLETE", "SKIPPED", "DEAD_LETTER", "REVOKED"]);

export const ENDED_RUN: ReadonlySet<RunStatus> = new Set(["COMPLETE", "DEAD_LETTER", "STOPPED"]);

/** Who may touch this run at all: its team (else 404), and a run-bound token only its run (else 403). */
export function authorize(state: RunState | null, actor: Actor, runId: string): AppError | null {
  if (state === null || state.run.team_id !== actor.team_id)
    return { code: "not_found", message: `run ${runId} not found` };
  if (actor.run_id !== undefined && actor.run_id !== state.run.run_id) {
    return { code: "forbidden", message: "this token is bound to another run" };
  }
  return null;
}

export function initialRun(cmd: CreateRun, now: number): RunMeta {
  return {
    run_id: cmd.run_id,
    team_id: cmd.actor.team_id,
    kind: cmd.kind,
    goal: cmd.goal,
    template: cmd.template,
    skills: cmd.skills,
    status: cmd.kind === "control" ? "RUNNING" : "PENDING",
    created_by: cmd.actor.subject,
    created_at: now,
    updated_at: now,
    budget: cmd.budget,
    used: { tokens_in: 0, tokens_out: 0 },
    steps_total: 0,
    hints: cmd.hints,
    snapshot: cmd.snapshot,
    exit: null,
    seq: 0,
    order_count: 0,
    steps: [],
  };
}

export const emptyState = (run: RunMeta): RunState => ({
  run,
  items: {},
  orders: {},
  gates: {},
  early: {},
  ops: {},
  deadLetters: {},
});

export function create(cmd: CreateRun, now: number): ReduceResult<RunOpReply<"create">> {
  const tx = new Tx(emptyState(initialRun(cmd, now)), now);
  tx.record({ t: "run", row: runRow(tx.run) });
  tx.emit("run.started", {
    kind: cmd.kind,
    goal: cmd.goal,
    template: cmd.template,
    skills: cmd.skills,
    budget: cmd.budget,
    hints: cmd.hints.map((h) => h.id),
    policy_snapshot: cmd.snapshot,
    created_by: cmd.actor.subject,
  });
  if (cmd.hints.length)
    tx.emit("run.observer.memory_hints", {
      query: [cmd.goal, ...cmd.skills].join(" "),
      hints: cmd.hints.map((h) => ({ id: h.id, namespace: h.namespace, score: h.score })),
    });
  const items = cmd.items ?? [];
  if (items.length > 0) {
    const failed = putItems(tx, items, cmd.actor.subject);
    if (failed) return failed;
    releaseItems(tx);
  }
  return tx.result({
    run_id: cmd.run_id,
    status: tx.run.status,
    ...(items.length ? { items: summaries(tx, items) } : {}),
    hints: cmd.hints,
    policy_snapshot: cmd.snapshot,
  });
}

/** Every deadline the object's one alarm must cover: lease expiries, retry back-offs, soft gates, escalations. */
export function nextDeadline(state: RunState | null): number | null {
  if (state === null) return null;
  let next = Number.POSITIVE_INFINITY;
  for (const o of Object.values(state.orders)) {
    if (o.status === "LEASED" && o.lease) next = Math.min(next, o.lease.expires_at);
    else if (o.status === "RETRY_WAIT" && o.not_before !== null) next = Math.min(next, o.not_before);
  }
  for (const g of Object.values(state.gates)) {
    if (g.status === "pending" && g.kind === "soft" && g.deadline_at !== null) next = Math.min(next, g.deadline_at);
    const esc = nextEscalation(g);
    if (esc) next = Math.min(next, esc.at);
  }
  return Number.isFinite(next) ? next : null;
}

/** A timer whose deadline has passed: when it was due, a stable id to order ties, and what firing it does. */
type DueTimer = { at: number; id: string; fire: () => void };

/** Fires every due timer in deadline order; nothing due → nothing changes (alarms are at-least-once). */
export function tick(tx: Tx): { fired: string[] } {
  const due = [...dueOrderTimers(tx), ...dueGateTimers(tx)];
  due.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const d of due) d.fire();
  return { fired: due.map((d) => d.id) };
}

/** Expired leases (rescued) and elapsed retry back-offs (queued again). */
function dueOrderTimers(tx: Tx): DueTimer[] {
  const due: DueTimer[] = [];
  for (const o of tx.allOrders()) {
    if (o.status === "LEASED" && o.lease && o.lease.expires_at <= tx.now) {
      due.push({
        at: o.lease.expires_at,
        id: `o:${o.order_id}`,
        fire: () => rescue(tx, tx.order(o.order_id) as Order),
      });
    } else if (o.status === "RETRY_WAIT" && o.not_before !== null && o.not_before <= tx.now) {
      due.push({
        at: o.not_before,
        id: `o:${o.order_id}`,
        fire: () => {
          const cur = tx.order(o.order_id) as Order;
          tx.putOrder({ ...cur, status: "QUEUED", not_before: null });
          tx.emit("task.requeued", { ...taskFields(tx.run, cur), reason: "backoff_elapsed" });
        },
      });
    }
  }
  return due;
}

/** Soft gates whose timer elapsed (allowed) and hard-gate escalations that fell due. */
function dueGateTimers(tx: Tx): DueTimer[] {
  const due: DueTimer[] = [];
  for (const g of tx.allGates()) {
    if (g.status === "pending" && g.kind === "soft" && g.deadline_at !== null && g.deadline_at <= tx.now) {
      due.push({
        at: g.deadline_at,
        id: `g:${g.gate_id}`,
        fire: () => {
          const cur = tx.gate(g.gate_id) as Gate;
          if (cur.status === "pending")
            applyDecision(
              gateHost(tx),
              cur,
              "auto_allow",
              "timer",
              null,
              `soft gate timer (${cur.timeout_ms} ms) elapsed`,
            );
        },
      });
    }
    const esc = nextEscalation(g);
    if (esc && esc.at <= tx.now)
      due.push({ at: esc.at, id: `e:${g.gate_id}`, fire: () => fireEscalation(tx, g.gate_id) });
  }
  return due;
}

/** Raises a hard gate's escalation level(s) now due, each announced as gate.escalated. */
function fireEscalation(tx: Tx, gateId: string): void {
  // the gate as it is now: an earlier timer in this tick may have decided it
  const { gate, fired } = escalate(tx.gate(gateId) as Gate, tx.now);
  if (!fired.length) return;
  tx.putGate(gate);
  for (const e of fired)
    tx.emit("gate.escalated", {
      gate_id: gate.gate_id,
      op_id: gate.op_id,
      policy_key: gate.policy_key,
      kind: gate.kind,
      rule_id: gate.rule_id,
      opened_at: gate.opened_at,
      level: e.level,
      due_at: e.at,
    });
}

export function stop(tx: Tx, cmd: CommandOf<"stop">): Failure | RunOpReply<"stop"> {
  if (tx.run.kind === "control") return rejected("the control run cannot be stopped");
  if (ENDED_RUN.has(tx.run.status)) {
    return { run_id: tx.run.run_id, status: tx.run.status, revoked_leases: [], revoked_orders: [], aborted_gates: [] };
  }
  const revoked_leases: string[] = [];
  const revoked_orders: string[] = [];
  const aborted_gates: string[] = [];
  for (const o of tx.allOrders().sort((a, b) => a.index - b.index)) {
    if (TERMINAL_ORDER.has(o.status) || o.status === "REPLAN") continue;
    if (o.status === "LEASED") revoked_leases.push(o.order_id);
    revoked_orders.push(o.order_id);
    const leases = o.status === "LEASED" ? laneEnded(o, "revoked", tx.now) : o.leases;
    tx.putOrder({ ...o, status: "REVOKED", lease: null, not_before: null, leases });
    tx.emit("task.revoked", {
      ...taskFields(tx.run, o),
      lease_id: o.lease?.lease_id ?? null,
      epoch: o.lease?.epoch ?? null,
      reason: "run stopped",
    });
  }
  for (const g of tx.allGates().sort((a, b) => a.seq - b.seq)) {
    if (g.status !== "pending") continue;
    aborted_gates.push(g.gate_id);
    applyDecision(gateHost(tx), g, "approve_abort", cmd.actor.subject, cmd.reason, STOP_ABORT_REASON, {
      resolution: "run_stopped",
    });
  }
  const cancelled_items = cancelItems(tx);
  tx.setStatus("STOPPED");
  endRun(
    tx,
    "STOPPED",
    cmd.reason ? `stopped by ${cmd.actor.subject}: ${cmd.reason}` : `stopped by ${cmd.actor.subject}`,
  );
  tx.audit(cmd.actor.subject, "run.stopped", "run", tx.run.run_id, {
    reason: cmd.reason,
    revoked_leases,
    aborted_gates,
    ...(cancelled_items.length ? { cancelled_items } : {}),
  });
  return { run_id: tx.run.run_id, status: "STOPPED", revoked_leases, revoked_orders, aborted_gates };
}

export function endRun(tx: Tx, status: RunStatus, reason: string) {
  const terminal = tx.run.steps.at(-1) ?? null;
  tx.patchRun({ exit: { status, reason, at: tx.now, terminal_step: terminal } });
  const orders = tx.allOrders().sort((a, b) => a.index - b.index);
  const completed = tx.emit("run.completed", {
    outcome: status,
    reason,
    skills: tx.run.skills,
    tokens: { in: tx.run.used.tokens_in, out: tx.run.used.tokens_out },
    steps: tx.run.steps_total,
    duration_ms: tx.now - tx.run.created_at,
    dead_letters: tx.allDeadLetters().filter((d) => d.resolved_at === null).length,
    orders_total: orders.length,
    // the first RUN_COMPLETED_ORDERS only: a queue message stays well under its size limit
    orders: orders.slice(0, RUN_COMPLETED_ORDERS).map((o) => ({
      order_id: o.order_id,
      task_id: o.task_id,
      skill: skillOf(tx.run, o),
      status: o.status,
      attempts: o.attempts,
      outcome: o.last?.outcome ?? null,
      failure_class: o.last?.failure_class ?? null,
      failure_classes: o.failure_history ?? [],
    })),
  });
  tx.patchRun({ completion_seq: completed.seq });
}

export function orderSettled(o: Order, all: Order[]): boolean {
  if (TERMINAL_ORDER.has(o.status)) return true;
  // a replanned order is settled once the orchestrator has posted a later order
  return o.status === "REPLAN" && all.some((x) => x.index > o.index);
}

/**
 * A run ends when every order is settled and no gate is pending; a new order or gate reopens it. A pending
 * dead_letter_review does not hold it open: the run ends DEAD_LETTER as before, and the review's approve_retry
 * reissues the order and reopens it (as every reissue does).
 */
export function reconcile(tx: Tx): void {
  if (tx.run.kind !== "agent" || tx.run.status === "STOPPED") return;
  releaseItems(tx);
  const orders = tx.allOrders();
  const items = tx.allItems();
  const settled =
    orders.length + items.length > 0 &&
    orders.every((o) => orderSettled(o, orders)) &&
    !items.some((i) => i.stored === "waiting") &&
    !tx.allGates().some((g) => g.status === "pending" && g.policy_key !== DEAD_LETTER_REVIEW);
  const ended = tx.run.status === "COMPLETE" || tx.run.status === "DEAD_LETTER";
  if (settled && !ended) {
    const dead = orders.filter((o) => o.status === "DEAD_LETTER");
    const status: RunStatus = dead.length > 0 ? "DEAD_LETTER" : "COMPLETE";
    tx.setStatus(status);
    const reason =
      status === "COMPLETE"
        ? `all ${orders.length} orders settled`
        : `${dead.length} of ${orders.length} orders dead-lettered (${dead.map((o) => `${o.order_id}: ${tx.deadLetter(o.dead_letter_id ?? "")?.reason_code ?? "?"}`).join(", ")})`;
    endRun(tx, status, reason);
  } else if (!settled && ended) {
    tx.setStatus("RUNNING");
    tx.patchRun({ exit: null });
    tx.emit("run.reopened", {});
  }
}

/** This file's run operations (reducer.ts joins every concern's table). */
export const LIFECYCLE_STEPS = { stop } satisfies StepTable;
