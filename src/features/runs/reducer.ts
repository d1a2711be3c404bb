// The pure per-run reducer: (state, command, now) → {state, effects, reply} or an expected error; no I/O, no clock.
import type { AppError } from "../../errors";
import { stableId } from "../../lib/hash";
import { canonicalJson } from "../policy/decision-log";
import { applyDecision, decideGateApi, openGate, openGateApi } from "./gate-steps";
import {
  type Actor,
  type Command,
  type CommandOf,
  type CompleteReply,
  type CreateRun,
  type Effects,
  type Failure,
  type Gate,
  HEARTBEAT_MS,
  LEASE_TTL_MS,
  MAX_ORDER_ATTEMPTS,
  MAX_RESCUES,
  type Order,
  type OrderStatus,
  type ReduceResult,
  type RunMeta,
  type RunState,
  type RunStatus,
} from "./model";
import type { RunOpReply, RunWriteOp } from "./operations";
import { nextAfterFailure, type StepDecision } from "./taxonomy";
import {
  conflict,
  controlOpId,
  deadLetterOrder,
  deployTable,
  forbidden,
  gateIdFor,
  notFound,
  rejected,
  runRow,
  skillOf,
  Tx,
  taskFields,
} from "./tx";

export { controlOpId, gateIdFor };

const RUN_COMPLETED_ORDERS = 200;
const TERMINAL_ORDER: ReadonlySet<OrderStatus> = new Set(["COMPLETE", "SKIPPED", "DEAD_LETTER", "REVOKED"]);
const ENDED_RUN: ReadonlySet<RunStatus> = new Set(["COMPLETE", "DEAD_LETTER", "STOPPED"]);

/** Who may touch this run at all: its team (else 404), and a run-bound token only its run (else 403). */
export function authorize(state: RunState | null, actor: Actor, runId: string): AppError | null {
  if (state === null || state.run.team_id !== actor.team_id)
    return { code: "not_found", message: `run ${runId} not found` };
  if (actor.run_id !== undefined && actor.run_id !== state.run.run_id) {
    return { code: "forbidden", message: "this token is bound to another run" };
  }
  return null;
}

function initialRun(cmd: CreateRun, now: number): RunMeta {
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

const emptyState = (run: RunMeta): RunState => ({ run, orders: {}, gates: {}, early: {}, ops: {}, deadLetters: {} });

function create(cmd: CreateRun, now: number): ReduceResult<RunOpReply<"create">> {
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
  return tx.result({ run_id: cmd.run_id, status: tx.run.status, hints: cmd.hints, policy_snapshot: cmd.snapshot });
}

type StepOp = Exclude<RunWriteOp, "create" | "propose_deploy">;
/** A step over an existing run's transaction: its reply, or an expected failure (then nothing changes). */
type Step<K extends StepOp> = (tx: Tx, cmd: CommandOf<K>) => Failure | RunOpReply<K>;
type OpReducer<K extends RunWriteOp> = (
  state: RunState | null,
  cmd: CommandOf<K>,
  now: number,
) => ReduceResult<RunOpReply<K>>;

/** Runs a step on an existing run the caller may touch, then settles the run (ends or reopens it). */
function onRun<K extends StepOp>(step: Step<K>): OpReducer<K> {
  return (state, cmd, now) => {
    if (state === null) return notFound("run not found");
    const denied = authorize(state, cmd.actor, state.run.run_id);
    if (denied) return { ok: false, error: denied };
    const tx = new Tx(state, now);
    const out = step(tx, cmd);
    if (isFailure(out)) return out;
    reconcile(tx);
    return tx.result(out);
  };
}

/** The reducer of every write operation of the operations table. */
const OPS: { [K in RunWriteOp]: OpReducer<K> } = {
  create: (state, cmd, now) => (state !== null ? conflict(`run ${cmd.run_id} already exists`) : create(cmd, now)),
  propose_deploy: proposeDeploy,
  add_order: onRun(addOrder),
  lease: onRun(lease),
  heartbeat: onRun(heartbeat),
  complete: onRun(complete),
  open_gate: onRun(openGateApi),
  decide_gate: onRun(decideGateApi),
  stop: onRun(stop),
};

/** One write operation, typed by the operations table: the reply is the operation's reply type. */
export function reduceOp<K extends RunWriteOp>(
  state: RunState | null,
  cmd: CommandOf<K>,
  now: number,
): ReduceResult<RunOpReply<K>> {
  const op: OpReducer<K> = OPS[cmd.type as K];
  return op(state, cmd, now);
}

/** Any command, the alarm's tick included (the property tests drive the reducer through here). */
export function reduce(state: RunState | null, cmd: Command, now: number): ReduceResult<object> {
  if (cmd.type !== "tick") return reduceOp(state, cmd, now);
  if (state === null) return notFound("run not found");
  const tx = new Tx(state, now);
  const out = tick(tx);
  reconcile(tx);
  return tx.result(out);
}

const isFailure = (x: Failure | object): x is Failure => "ok" in x && x.ok === false && "error" in x;

// ---- orders and leases --------------------------------------------------------------------

function addOrder(tx: Tx, cmd: CommandOf<"add_order">): Failure | RunOpReply<"add_order"> {
  const { order } = cmd;
  if (tx.run.kind === "control") return rejected("the control run takes no work orders");
  if (tx.run.status === "STOPPED") return conflict("run is stopped");
  if (cmd.actor.task_id !== undefined && cmd.actor.task_id !== order.task_id) {
    return forbidden("this token is bound to another task");
  }
  const existing = tx.order(order.order_id);
  if (existing) {
    const same = canonicalJson(existing.body) === canonicalJson(order) && existing.skill === cmd.skill;
    if (!same) return conflict(`order ${order.order_id} already exists with a different body`);
    return { order_id: existing.order_id, status: existing.status };
  }
  const created: Order = {
    order_id: order.order_id,
    task_id: order.task_id,
    goal: order.goal,
    skill: cmd.skill,
    body: order,
    index: tx.run.order_count,
    status: "QUEUED",
    created_at: tx.now,
    updated_at: tx.now,
    attempts: 0,
    failures: {},
    failure_history: [],
    rescues: 0,
    epoch: 0,
    lease: null,
    not_before: null,
    gate_id: null,
    strict: false,
    reissued: false,
    dead_letter_id: null,
    last: null,
    output: null,
  };
  tx.patchRun({ order_count: tx.run.order_count + 1 });
  tx.putOrder(created);
  tx.emit("task.created", { ...taskFields(tx.run, created), goal: created.goal, created_by: cmd.actor.subject });
  return { order_id: created.order_id, status: created.status };
}

function orderFor(tx: Tx, actor: Actor, orderId: string): Order | { ok: false; error: AppError } {
  const order = tx.order(orderId);
  if (!order) return notFound(`order ${orderId} not found`);
  if (actor.task_id !== undefined && actor.task_id !== order.task_id)
    return forbidden("this token is bound to another task");
  return order;
}

/** An expired lease goes back to the queue with its epoch fenced off (or dead-letters after MAX_RESCUES). */
function rescue(tx: Tx, order: Order): void {
  const lease = order.lease as NonNullable<Order["lease"]>;
  const rescues = order.rescues + 1;
  const exhausted = rescues >= MAX_RESCUES;
  const step = tx.addStep({
    order_id: order.order_id,
    task_id: order.task_id,
    op_id: `lease:${lease.lease_id}`,
    attempt: order.attempts + 1,
    outcome: "LEASE_EXPIRED",
    failure_class: "lease_expired",
    next: exhausted ? "dead_letter" : "retry",
    tokens_in: 0,
    tokens_out: 0,
  });
  tx.emit("task.lease_expired", {
    ...taskFields(tx.run, order),
    lease_id: lease.lease_id,
    epoch: lease.epoch,
    worker_id: lease.worker_id,
    expired_at: lease.expires_at,
    rescues,
  });
  const requeued: Order = { ...order, lease: null, rescues, status: "QUEUED" };
  if (exhausted) {
    deadLetterOrder(tx, requeued, `lease:${lease.lease_id}`, "lease_expired", "lease_expired", step);
  } else {
    tx.putOrder(requeued);
  }
}

function lease(tx: Tx, cmd: CommandOf<"lease">): Failure | RunOpReply<"lease"> {
  if (tx.run.status === "STOPPED") return conflict("run is stopped");
  const found = orderFor(tx, cmd.actor, cmd.order_id);
  if ("ok" in found) return found;
  let order = found;
  if (order.status === "LEASED") {
    const held = order.lease as NonNullable<Order["lease"]>;
    if (held.expires_at > tx.now)
      return conflict(`order ${order.order_id} is leased until ${held.expires_at} (epoch ${held.epoch})`);
    rescue(tx, order);
    order = tx.order(order.order_id) as Order;
  }
  if (order.status === "RETRY_WAIT") {
    if ((order.not_before ?? 0) > tx.now)
      return conflict(`order ${order.order_id} may be retried from ${order.not_before}`);
  } else if (order.status !== "QUEUED") {
    const why = order.status === "GATED" ? ` (waiting on gate ${order.gate_id})` : "";
    return conflict(`order ${order.order_id} is ${order.status}${why}`);
  }
  const epoch = order.epoch + 1;
  const granted: Order = {
    ...order,
    status: "LEASED",
    epoch,
    not_before: null,
    lease: {
      lease_id: cmd.lease_id,
      epoch,
      worker_id: cmd.worker_id,
      holder: cmd.actor.subject,
      granted_at: tx.now,
      expires_at: tx.now + LEASE_TTL_MS,
    },
  };
  tx.putOrder(granted);
  if (tx.run.status === "PENDING") {
    tx.setStatus("RUNNING");
    tx.emit("run.running", {});
  }
  tx.emit("task.leased", {
    ...taskFields(tx.run, granted),
    lease_id: cmd.lease_id,
    epoch,
    worker_id: cmd.worker_id,
    attempt: granted.attempts + 1,
  });
  return {
    lease_id: cmd.lease_id,
    epoch,
    lease_ttl_ms: LEASE_TTL_MS,
    heartbeat_ms: HEARTBEAT_MS,
    expires_at: tx.now + LEASE_TTL_MS,
    attempt: granted.attempts + 1,
    strict: granted.strict,
    budget: stepBudget(tx.run, granted),
    order: granted.body,
  };
}

function stepBudget(run: RunMeta, order: Order) {
  return {
    input_tokens: run.budget.input_tokens,
    output_tokens: run.budget.output_tokens,
    ...(order.body.cost_budget_tokens === undefined ? {} : { cost_budget_tokens: order.body.cost_budget_tokens }),
    ...(run.budget.total_tokens === null
      ? {}
      : { run_tokens_left: Math.max(0, run.budget.total_tokens - run.used.tokens_in - run.used.tokens_out) }),
  };
}

/** Current lease check shared by heartbeat and complete: a 409 with nothing changed when stale or expired. */
function checkLease(tx: Tx, order: Order, leaseId: string, epoch: number): { ok: false; error: AppError } | null {
  if (order.status !== "LEASED" || order.lease === null) {
    return conflict(`stale lease: order ${order.order_id} is ${order.status} (current epoch ${order.epoch})`);
  }
  if (order.lease.epoch !== epoch) return conflict(`stale epoch ${epoch}: current epoch is ${order.lease.epoch}`);
  if (order.lease.lease_id !== leaseId) return conflict(`lease ${leaseId} is not the current lease`);
  if (order.lease.expires_at <= tx.now) return conflict(`lease expired at ${order.lease.expires_at}`);
  return null;
}

function heartbeat(tx: Tx, cmd: CommandOf<"heartbeat">): Failure | RunOpReply<"heartbeat"> {
  const found = orderFor(tx, cmd.actor, cmd.order_id);
  if ("ok" in found) return found;
  const stale = checkLease(tx, found, cmd.lease_id, cmd.epoch);
  if (stale) return stale;
  const lease = found.lease as NonNullable<Order["lease"]>;
  const expires_at = tx.now + LEASE_TTL_MS;
  tx.putOrder({ ...found, lease: { ...lease, expires_at } });
  return {
    lease_id: lease.lease_id,
    epoch: lease.epoch,
    expires_at,
    lease_ttl_ms: LEASE_TTL_MS,
    heartbeat_ms: HEARTBEAT_MS,
  };
}

function budgetBreach(
  tx: Tx,
  order: Order,
  tokensIn: number,
  tokensOut: number,
): { rule: string; total: boolean } | null {
  const { budget, used } = tx.run;
  if (budget.total_tokens !== null && used.tokens_in + used.tokens_out + tokensIn + tokensOut > budget.total_tokens) {
    return { rule: "budget.run_total", total: true };
  }
  if (tokensIn > budget.input_tokens) return { rule: "budget.step_input", total: false };
  if (tokensOut > budget.output_tokens) return { rule: "budget.step_output", total: false };
  const cap = order.body.cost_budget_tokens;
  if (cap !== undefined && tokensIn + tokensOut > cap) return { rule: "budget.order_cost", total: false };
  return null;
}

function complete(tx: Tx, cmd: CommandOf<"complete">): Failure | RunOpReply<"complete"> {
  const found = orderFor(tx, cmd.actor, cmd.order_id);
  if ("ok" in found) return found;
  // op_id idempotency comes before the lease check: a retried completion gets its first answer after the lease is gone
  const seen = tx.op(cmd.op_id);
  if (seen) {
    if (seen.digest === cmd.digest && seen.order_id === cmd.order_id) return seen.reply;
    return conflict(`op_id ${cmd.op_id} was already used with a different body`);
  }
  const stale = checkLease(tx, found, cmd.lease_id, cmd.epoch);
  if (stale) return stale;

  const order = found;
  const attempt = order.attempts + 1;
  const breach = budgetBreach(tx, order, cmd.tokens_in, cmd.tokens_out);
  tx.patchRun({
    used: { tokens_in: tx.run.used.tokens_in + cmd.tokens_in, tokens_out: tx.run.used.tokens_out + cmd.tokens_out },
    steps_total: tx.run.steps_total + 1,
  });
  const base: Order = {
    ...order,
    attempts: attempt,
    lease: null,
    strict: false,
  };
  const tokens = { in: cmd.tokens_in, out: cmd.tokens_out };
  let reply: CompleteReply;
  let failureClass: string | null = null;
  let outcome = cmd.outcome;

  if (breach) {
    tx.emit("budget.breached", { ...taskFields(tx.run, order), rule: breach.rule, tokens, budget: tx.run.budget });
    outcome = "DECLINE";
  }

  if (outcome === "PASS") {
    const done: Order = {
      ...base,
      status: "COMPLETE",
      output: cmd.output ?? null,
      last: { op_id: cmd.op_id, outcome, failure_class: null, next: "complete" },
    };
    tx.putOrder(done);
    reply = { next: "complete", attempt };
    tx.addStep({
      order_id: order.order_id,
      task_id: order.task_id,
      op_id: cmd.op_id,
      attempt,
      outcome,
      failure_class: null,
      next: "complete",
      tokens_in: cmd.tokens_in,
      tokens_out: cmd.tokens_out,
    });
    tx.emit("task.completed", {
      ...taskFields(tx.run, done),
      outcome,
      failure_class: null,
      tokens,
      attempt,
      op_id: cmd.op_id,
      next: "complete",
    });
  } else {
    failureClass = breach ? "budget_exceeded" : cmd.failure_class;
    const classAttempt = failureClass === null ? 1 : (order.failures[failureClass] ?? 0) + 1;
    if (failureClass !== null) {
      base.failures = { ...order.failures, [failureClass]: classAttempt };
      base.failure_history = [...(order.failure_history ?? []), failureClass];
    }
    const policyStep = nextAfterFailure(
      { failure_class: failureClass, attempt: classAttempt, single_attempt: order.reissued },
      tx.run.snapshot,
      cmd.policy,
    );
    const { step, decision } = breach?.total
      ? { step: { next: "dead_letter" as const, reason_code: "budget_exhausted" }, decision: null }
      : attempt >= MAX_ORDER_ATTEMPTS && (policyStep.step.next === "retry" || policyStep.step.next === "gate")
        ? { step: { next: "dead_letter" as const, reason_code: "attempts_exhausted" }, decision: policyStep.decision }
        : policyStep;
    const decisionId = stableId("dec", tx.run.run_id, cmd.op_id);
    const wireDecision = decision ? wireOf(decision, decisionId) : undefined;
    if (decision) logDecision(tx, decision, decisionId, order, failureClass);
    reply = {
      next: step.next,
      attempt,
      ...(breach ? { refused: breach.rule } : {}),
      ...(wireDecision ? { decision: wireDecision } : {}),
      ...(cmd.failure_hints.length ? { hints: cmd.failure_hints } : {}),
    };
    const last = { op_id: cmd.op_id, outcome, failure_class: failureClass, next: step.next };
    const stepBase = {
      order_id: order.order_id,
      task_id: order.task_id,
      op_id: cmd.op_id,
      attempt,
      outcome,
      failure_class: failureClass,
      tokens_in: cmd.tokens_in,
      tokens_out: cmd.tokens_out,
      ...(breach ? { refused: breach.rule } : {}),
      ...(decision ? { decision: { ...decision, decision_id: decisionId } } : {}),
    };
    const failedFields = {
      ...taskFields(tx.run, { ...base }),
      outcome,
      failure_class: failureClass,
      tokens,
      attempt,
      op_id: cmd.op_id,
      hints: cmd.failure_hints.map((h) => h.id),
    };
    switch (step.next) {
      case "retry": {
        const waiting: Order =
          step.retry_after_ms > 0
            ? { ...base, status: "RETRY_WAIT", not_before: tx.now + step.retry_after_ms, last }
            : { ...base, status: "QUEUED", not_before: null, last };
        tx.putOrder(waiting);
        reply.retry_after_ms = step.retry_after_ms;
        tx.addStep({ ...stepBase, next: "retry", retry_after_ms: step.retry_after_ms });
        tx.emit("task.failed", { ...failedFields, next: "retry", retry_after_ms: step.retry_after_ms });
        break;
      }
      case "gate": {
        const gateId = gateIdFor(tx.run.run_id, cmd.op_id, step.policy_key);
        if (tx.gate(gateId)) return conflict(`op_id ${cmd.op_id} already names a ${step.policy_key} gate`);
        const gated: Order = { ...base, status: "GATED", gate_id: gateId, last };
        tx.putOrder(gated);
        tx.addStep({ ...stepBase, next: "gate", gate_id: gateId });
        tx.emit("task.failed", { ...failedFields, next: "gate" });
        const gate = openGate(tx, {
          op_id: cmd.op_id,
          policy_key: step.policy_key,
          context: { order_id: order.order_id, failure_class: failureClass, attempt },
          subject: { type: "order", order_id: order.order_id },
          opener: cmd.actor.subject,
          rules: cmd.gate_rules,
        });
        reply.gate_id = gate.gate_id;
        const after = tx.order(order.order_id) as Order;
        if (after.status === "GATED") {
          tx.emit("task.blocked", {
            ...taskFields(tx.run, after),
            reason: "gate",
            gate_id: gate.gate_id,
            policy_key: gate.policy_key,
            failure_class: failureClass,
          });
        } else if (after.status === "DEAD_LETTER") {
          reply.next = "dead_letter";
          reply.dead_letter_id = after.dead_letter_id ?? undefined;
        } else if (after.status === "SKIPPED") {
          reply.next = "complete";
        } else {
          reply.next = "retry";
          reply.retry_after_ms = 0;
        }
        break;
      }
      case "dead_letter": {
        const stepRec = tx.addStep({ ...stepBase, next: "dead_letter" });
        tx.emit("task.failed", { ...failedFields, next: "dead_letter", reason_code: step.reason_code });
        const dl = deadLetterOrder(tx, { ...base, last }, cmd.op_id, step.reason_code, failureClass, stepRec);
        reply.dead_letter_id = dl.id;
        break;
      }
      case "replan": {
        tx.putOrder({ ...base, status: "REPLAN", last });
        tx.addStep({ ...stepBase, next: "replan" });
        tx.emit("task.failed", { ...failedFields, next: "replan" });
        tx.emit("task.blocked", { ...taskFields(tx.run, base), reason: "replan", failure_class: failureClass });
        break;
      }
    }
  }
  tx.record({
    t: "attempt",
    row: {
      attempt_id: stableId("att", tx.run.run_id, cmd.op_id),
      run_id: tx.run.run_id,
      order_id: order.order_id,
      op_id: cmd.op_id,
      outcome,
      failure_class: failureClass,
      next: reply.next,
      tokens_in: cmd.tokens_in,
      tokens_out: cmd.tokens_out,
      started_at: (order.lease as NonNullable<Order["lease"]>).granted_at,
      ended_at: tx.now,
    },
  });
  tx.putOp({ op_id: cmd.op_id, order_id: order.order_id, digest: cmd.digest, reply });
  return reply;
}

function wireOf(d: StepDecision, decisionId: string): NonNullable<CompleteReply["decision"]> {
  return {
    decision_id: decisionId,
    rule_id: d.rule_id,
    action: d.action,
    selected_action: d.selected_action,
    memrl_mode: d.memrl_mode,
    failure_class: d.failure_class,
    attempt_bucket: d.attempt_bucket,
    profile_version: d.profile_version,
  };
}

/** The decision goes to the decision log through the same `policy.decided` event as POST /v1/policy/decide. */
function logDecision(tx: Tx, d: StepDecision, decisionId: string, order: Order, reported: string | null) {
  tx.emit("policy.decided", {
    decision: {
      decision_id: decisionId,
      team_id: tx.run.team_id,
      run_id: tx.run.run_id,
      task_id: order.task_id,
      inputs: {
        failure_class: d.failure_class ?? undefined,
        reported_failure_class: reported,
        attempt: d.attempt,
        max_attempts: d.max_attempts,
        legacy_action: d.selected_action === d.action ? undefined : d.selected_action,
      },
      inputs_digest: "",
      profile_version: d.profile_version,
      requested_mode: d.requested_mode,
      effective_mode: d.memrl_mode,
      ceiling: d.ceiling,
      failure_class: d.failure_class,
      attempt_bucket: d.attempt_bucket,
      rule_id: d.rule_id,
      raw_action: d.action,
      selected_action: d.selected_action,
      created_at: tx.now,
    },
  });
}

// ---- deploys ---------------------------------------------------------------------------

function proposeDeploy(
  state: RunState | null,
  cmd: CommandOf<"propose_deploy">,
  now: number,
): ReduceResult<RunOpReply<"propose_deploy">> {
  let base = state;
  let fresh: Effects | null = null;
  if (base === null) {
    const created = create(
      {
        type: "create",
        actor: cmd.actor,
        run_id: cmd.run_id,
        kind: "control",
        goal: `policy deploys for team ${cmd.actor.team_id}`,
        template: null,
        skills: [],
        budget: { input_tokens: 0, output_tokens: 0, total_tokens: null },
        hints: [],
        snapshot: { version: "1.0.0", taken_at: now, retry_adjustments: {}, warnings: [] },
      },
      now,
    );
    if (!created.ok) return created;
    base = created.state;
    fresh = created.effects;
  } else if (base.run.team_id !== cmd.actor.team_id || base.run.kind !== "control") {
    return conflict("not this team's control run");
  }
  const tx = new Tx(base, now);
  if (fresh) {
    tx.effects.events.push(...fresh.events);
    tx.effects.records.push(...fresh.records);
  }
  const op_id = controlOpId(cmd.target, cmd.version);
  const existing = tx.gate(gateIdFor(tx.run.run_id, op_id, "policy_deploy"));
  const gate =
    existing ??
    openGate(tx, {
      op_id,
      policy_key: "policy_deploy",
      context: { target: cmd.target, version: cmd.version },
      subject: { type: "deploy", target: cmd.target, version: cmd.version },
      opener: cmd.actor.subject,
      rules: { version: 0, rules: [] },
    });
  if (!existing) {
    tx.audit(cmd.actor.subject, `policy.${cmd.target}.proposed`, deployTable(cmd.target), String(cmd.version), {
      gate_id: gate.gate_id,
    });
  }
  return tx.result({ run_id: tx.run.run_id, op_id, gate_id: gate.gate_id, version: cmd.version, status: "pending" });
}

// ---- timers -----------------------------------------------------------------------------

/** Every deadline the object's one alarm must cover: lease expiries, retry back-offs, soft gates. */
export function nextDeadline(state: RunState | null): number | null {
  if (state === null) return null;
  let next = Number.POSITIVE_INFINITY;
  for (const o of Object.values(state.orders)) {
    if (o.status === "LEASED" && o.lease) next = Math.min(next, o.lease.expires_at);
    else if (o.status === "RETRY_WAIT" && o.not_before !== null) next = Math.min(next, o.not_before);
  }
  for (const g of Object.values(state.gates)) {
    if (g.status === "pending" && g.kind === "soft" && g.deadline_at !== null) next = Math.min(next, g.deadline_at);
  }
  return Number.isFinite(next) ? next : null;
}

/** Fires every due timer in deadline order; nothing due → nothing changes (alarms are at-least-once). */
function tick(tx: Tx): { fired: string[] } {
  type Due = { at: number; id: string; fire: () => void };
  const due: Due[] = [];
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
  for (const g of tx.allGates()) {
    if (g.status === "pending" && g.kind === "soft" && g.deadline_at !== null && g.deadline_at <= tx.now) {
      due.push({
        at: g.deadline_at,
        id: `g:${g.gate_id}`,
        fire: () => {
          const cur = tx.gate(g.gate_id) as Gate;
          if (cur.status === "pending")
            applyDecision(tx, cur, "auto_allow", "timer", null, `soft gate timer (${cur.timeout_ms} ms) elapsed`);
        },
      });
    }
  }
  due.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const d of due) d.fire();
  return { fired: due.map((d) => d.id) };
}

// ---- stop and settlement ----------------------------------------------------------------

function stop(tx: Tx, cmd: CommandOf<"stop">): Failure | RunOpReply<"stop"> {
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
    tx.putOrder({ ...o, status: "REVOKED", lease: null, not_before: null });
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
    applyDecision(tx, g, "approve_abort", cmd.actor.subject, cmd.reason, "run stopped");
  }
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
  });
  return { run_id: tx.run.run_id, status: "STOPPED", revoked_leases, revoked_orders, aborted_gates };
}

function endRun(tx: Tx, status: RunStatus, reason: string) {
  const terminal = tx.run.steps.at(-1) ?? null;
  tx.patchRun({ exit: { status, reason, at: tx.now, terminal_step: terminal } });
  const orders = tx.allOrders().sort((a, b) => a.index - b.index);
  tx.emit("run.completed", {
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
}

function orderSettled(o: Order, all: Order[]): boolean {
  if (TERMINAL_ORDER.has(o.status)) return true;
  // a replanned order is settled once the orchestrator has posted a later order
  return o.status === "REPLAN" && all.some((x) => x.index > o.index);
}

/** A run ends when every order is settled and no gate is pending; a new order or gate reopens it. */
function reconcile(tx: Tx): void {
  if (tx.run.kind !== "agent" || tx.run.status === "STOPPED") return;
  const orders = tx.allOrders();
  const settled =
    orders.length > 0 &&
    orders.every((o) => orderSettled(o, orders)) &&
    !tx.allGates().some((g) => g.status === "pending");
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
