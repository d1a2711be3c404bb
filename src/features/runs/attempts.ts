// Attempt outcome steps of the reducer (pure): complete an attempt, then complete, retry, gate, dead-letter or replan.

import type { EventFields } from "../../../contracts/event-fields";
import { stableId } from "../../lib/hash";
import { gateIdFor, openGate } from "../gates/domain";
import { openReview, REVIEWED_FAILURE } from "./dead-letter-review";
import { gateHost } from "./gate-ops";
import { laneEnded } from "./lease-lane";
import {
  type CommandOf,
  type CompleteReply,
  FAILURE_HINTS_KEPT,
  type Failure,
  type FailureHints,
  MAX_ORDER_ATTEMPTS,
  type Order,
  type Outcome,
  type Step,
} from "./model";
import type { RunOpReply } from "./operations";
import { checkLease, orderFor } from "./orders";
import { decisionLogInputs, nextAfterFailure, type StepDecision } from "./taxonomy";
import { conflict, deadLetterOrder, type StepTable, type Tx, taskFields } from "./tx";
import { usedMemIds } from "./views";

export function budgetBreach(tx: Tx, order: Order, tokensIn: number, tokensOut: number): Breach | null {
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

/** One completed attempt, as every outcome branch sees it. */
type Attempt = {
  cmd: CommandOf<"complete">;
  /** the order as it was leased */
  order: Order;
  /** the order after this attempt: counted, lease released */
  base: Order;
  attempt: number;
  tokens: { in: number; out: number };
  breach: Breach | null;
  /** the reported outcome, or DECLINE when the attempt broke a budget */
  outcome: Outcome;
};
type Breach = { rule: string; total: boolean };

/** How long the attempt took, from its lease's grant to this completion (the run feed shows it); absent unleased. */
const latency = (tx: Tx, order: Order) => (order.lease ? { latency_ms: tx.now - order.lease.granted_at } : {});
type Failed = Attempt & {
  failureClass: string | null;
  reply: CompleteReply;
  last: NonNullable<Order["last"]>;
  stepBase: Omit<Step, "seq" | "at" | "next">;
  failedFields: Omit<EventFields<"task.failed">, "next">;
};
type FailureStep = ReturnType<typeof nextAfterFailure>["step"];

/** POST .../complete: idempotent by op_id, fenced by the lease, then the outcome decides the order's next step. */
export function complete(tx: Tx, cmd: CommandOf<"complete">): Failure | RunOpReply<"complete"> {
  const found = orderFor(tx, cmd.actor, cmd.order_id);
  if ("ok" in found) return found;
  // op_id idempotency comes before the lease check: a retried completion gets its first answer after the lease is gone
  const seen = tx.op(cmd.op_id);
  if (seen) {
    if (seen.digest === cmd.digest && seen.order_id === cmd.order_id) return seen.reply;
    return conflict(`op_id ${cmd.op_id} was already used with a different body`);
  }
  const stale = checkLease(tx, found, cmd.lease_id, cmd.epoch, cmd.actor.subject);
  if (stale) return stale;
  const a = startAttempt(tx, cmd, found);
  const done = a.outcome === "PASS" ? passed(tx, a) : failed(tx, a);
  if ("ok" in done) return done;
  recordAttempt(tx, a, done.failureClass, done.reply);
  return done.reply;
}

/** Counts the attempt's tokens against the run and checks the budgets (a breach turns the attempt into a DECLINE). */
function startAttempt(tx: Tx, cmd: CommandOf<"complete">, order: Order): Attempt {
  const breach = budgetBreach(tx, order, cmd.tokens_in, cmd.tokens_out);
  tx.patchRun({
    used: { tokens_in: tx.run.used.tokens_in + cmd.tokens_in, tokens_out: tx.run.used.tokens_out + cmd.tokens_out },
    steps_total: tx.run.steps_total + 1,
    // Warden's refusal or the worker's own budget_exceeded: either is a step over budget (src/lib/budget.ts)
    ...(breach || (cmd.outcome !== "PASS" && cmd.failure_class === "budget_exceeded")
      ? { budget_breaches: (tx.run.budget_breaches ?? 0) + 1 }
      : {}),
  });
  const attempt = order.attempts + 1;
  const base: Order = {
    ...order,
    attempts: attempt,
    lease: null,
    strict: false,
    leases: laneEnded(order, "completed", tx.now),
    tokens: (order.tokens ?? 0) + cmd.tokens_in + cmd.tokens_out,
  };
  const tokens = { in: cmd.tokens_in, out: cmd.tokens_out };
  if (breach) {
    tx.emit("budget.breached", { ...taskFields(tx.run, order), rule: breach.rule, tokens, budget: tx.run.budget });
  }
  return { cmd, order, base, attempt, tokens, breach, outcome: breach ? "DECLINE" : cmd.outcome };
}

function passed(tx: Tx, a: Attempt): { failureClass: null; reply: CompleteReply } {
  const { cmd, order, attempt, outcome } = a;
  const last = { op_id: cmd.op_id, outcome, failure_class: null, next: "complete" as const };
  const done: Order = { ...a.base, status: "COMPLETE", output: cmd.output ?? null, last };
  tx.putOrder(done);
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
    ...(order.lease ? { holder: order.lease.holder } : {}),
    ...(cmd.artifacts?.length ? { artifacts: cmd.artifacts } : {}),
  });
  const used = usedMemIds(cmd.output);
  tx.emit("task.completed", {
    ...taskFields(tx.run, done),
    ...(used ? { used_mem_ids: used } : {}),
    outcome,
    failure_class: null,
    tokens: a.tokens,
    ...latency(tx, order),
    attempt,
    op_id: cmd.op_id,
    next: "complete",
  });
  return { failureClass: null, reply: { next: "complete", attempt } };
}

/** A failed attempt: the taxonomy and the MemRL decision pick retry, gate, dead letter or replan. */
function failed(tx: Tx, a: Attempt): Failure | { failureClass: string | null; reply: CompleteReply } {
  const { cmd, order, base, attempt, breach, outcome } = a;
  const failureClass = breach ? "budget_exceeded" : cmd.failure_class;
  const classAttempt = failureClass === null ? 1 : (order.failures[failureClass] ?? 0) + 1;
  if (failureClass !== null) {
    base.failures = { ...order.failures, [failureClass]: classAttempt };
    base.failure_history = [...(order.failure_history ?? []), failureClass];
  }
  const { step, decision } = nextStep(tx, a, failureClass, classAttempt);
  const decisionId = stableId("dec", tx.run.run_id, cmd.op_id);
  const wireDecision = decision ? wireOf(decision, decisionId) : undefined;
  if (decision) logDecision(tx, decision, decisionId, order, failureClass);
  const reply: CompleteReply = {
    next: step.next,
    attempt,
    ...(breach ? { refused: breach.rule } : {}),
    ...(wireDecision ? { decision: wireDecision } : {}),
    ...(cmd.failure_hints.length ? { hints: cmd.failure_hints } : {}),
  };
  const f: Failed = {
    ...a,
    failureClass,
    reply,
    last: { op_id: cmd.op_id, outcome, failure_class: failureClass, next: step.next },
    stepBase: {
      order_id: order.order_id,
      task_id: order.task_id,
      op_id: cmd.op_id,
      attempt,
      outcome,
      failure_class: failureClass,
      tokens_in: cmd.tokens_in,
      tokens_out: cmd.tokens_out,
      ...(order.lease ? { holder: order.lease.holder } : {}),
      ...(cmd.artifacts?.length ? { artifacts: cmd.artifacts } : {}),
      ...(breach ? { refused: breach.rule } : {}),
      ...(decision ? { decision: { ...decision, decision_id: decisionId } } : {}),
    },
    failedFields: {
      ...taskFields(tx.run, { ...base }),
      outcome,
      failure_class: failureClass,
      tokens: a.tokens,
      ...latency(tx, order),
      attempt,
      op_id: cmd.op_id,
      hints: cmd.failure_hints.map((h) => h.id),
    },
  };
  const out = applyFailureStep(tx, f, step);
  if (cmd.failure_hints.length) keepFailureHints(tx, f);
  return out ?? { failureClass, reply };
}

/** YARLI task.observer.memory_hints: the hints go to the event log and stay on the run for its status and explain-exit. */
function keepFailureHints(tx: Tx, f: Failed) {
  const kept: FailureHints = {
    order_id: f.order.order_id,
    task_id: f.order.task_id,
    op_id: f.cmd.op_id,
    failure_class: f.failureClass,
    at: tx.now,
    hints: f.cmd.failure_hints,
  };
  tx.patchRun({ failure_hints: [...(tx.run.failure_hints ?? []), kept].slice(-FAILURE_HINTS_KEPT) });
  tx.emit("task.observer.memory_hints", {
    ...taskFields(tx.run, f.order),
    op_id: kept.op_id,
    failure_class: kept.failure_class,
    query: kept.failure_class ?? "unknown",
    hints: kept.hints.map((h) => ({ id: h.id, namespace: h.namespace, score: h.score })),
  });
}

/** The taxonomy's step, overridden to a dead letter by an exhausted run budget or the per-order attempt cap. */
function nextStep(tx: Tx, a: Attempt, failureClass: string | null, classAttempt: number) {
  const policyStep = nextAfterFailure(
    { failure_class: failureClass, attempt: classAttempt, single_attempt: a.order.reissued },
    tx.run.snapshot,
    a.cmd.policy,
  );
  if (a.breach?.total)
    return { step: { next: "dead_letter" as const, reason_code: "budget_exhausted" }, decision: null };
  if (a.attempt >= MAX_ORDER_ATTEMPTS && (policyStep.step.next === "retry" || policyStep.step.next === "gate"))
    return { step: { next: "dead_letter" as const, reason_code: "attempts_exhausted" }, decision: policyStep.decision };
  return policyStep;
}

function applyFailureStep(tx: Tx, f: Failed, step: FailureStep): Failure | null {
  const { base, last, stepBase, failedFields, reply } = f;
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
      return null;
    }
    case "gate":
      return gateAttempt(tx, f, step.policy_key);
    case "dead_letter": {
      const stepRec = tx.addStep({ ...stepBase, next: "dead_letter" });
      tx.emit("task.failed", { ...failedFields, next: "dead_letter", reason_code: step.reason_code });
      const dl = deadLetterOrder(tx, { ...base, last }, f.cmd.op_id, step.reason_code, f.failureClass, stepRec);
      reply.dead_letter_id = dl.id;
      // a wrong value waits for a human who can see the input, the output and the evidence (and correct the input)
      if (f.failureClass === REVIEWED_FAILURE) reply.gate_id = openReview(tx, f.cmd, f.order, dl).gate_id;
      return null;
    }
    case "replan": {
      tx.putOrder({ ...base, status: "REPLAN", last });
      tx.addStep({ ...stepBase, next: "replan" });
      tx.emit("task.failed", { ...failedFields, next: "replan" });
      tx.emit("task.blocked", { ...taskFields(tx.run, base), reason: "replan", failure_class: f.failureClass });
      return null;
    }
  }
  return null;
}

/** The failure needs a gate: the order waits on it, unless the gate decides at once (auto, deny, early approval). */
function gateAttempt(tx: Tx, f: Failed, policyKey: string): Failure | null {
  const { cmd, order, reply } = f;
  const gateId = gateIdFor(tx.run.run_id, cmd.op_id, policyKey);
  if (tx.gate(gateId)) return conflict(`op_id ${cmd.op_id} already names a ${policyKey} gate`);
  tx.putOrder({ ...f.base, status: "GATED", gate_id: gateId, last: f.last });
  tx.addStep({ ...f.stepBase, next: "gate", gate_id: gateId });
  tx.emit("task.failed", { ...f.failedFields, next: "gate" });
  const gate = openGate(gateHost(tx), {
    op_id: cmd.op_id,
    policy_key: policyKey,
    context: { order_id: order.order_id, failure_class: f.failureClass, attempt: f.attempt },
    subject: { type: "order", order_id: order.order_id },
    opener: cmd.actor.subject,
    openerIssuer: cmd.actor.issued_by,
    rules: cmd.gate_rules,
    escalate_after_ms: cmd.escalate_after_ms,
    // the profile version whose decision escalated the failure to this gate (shown on the run view and trace)
    ...(reply.decision ? { profileVersion: reply.decision.profile_version } : {}),
  });
  reply.gate_id = gate.gate_id;
  const after = tx.order(order.order_id) as Order;
  if (after.status === "GATED") {
    tx.emit("task.blocked", {
      ...taskFields(tx.run, after),
      reason: "gate",
      gate_id: gate.gate_id,
      policy_key: gate.policy_key,
      failure_class: f.failureClass,
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
  return null;
}

/** The attempt row for D1 and the op record that answers a retried completion with the same reply. */
function recordAttempt(tx: Tx, a: Attempt, failureClass: string | null, reply: CompleteReply): void {
  const { cmd, order } = a;
  tx.record({
    t: "attempt",
    row: {
      attempt_id: stableId("att", tx.run.run_id, cmd.op_id),
      run_id: tx.run.run_id,
      order_id: order.order_id,
      op_id: cmd.op_id,
      outcome: a.outcome,
      failure_class: failureClass,
      next: reply.next,
      tokens_in: cmd.tokens_in,
      tokens_out: cmd.tokens_out,
      holder: order.lease?.holder ?? null,
      persona_id: order.lease?.persona ?? null,
      started_at: (order.lease as NonNullable<Order["lease"]>).granted_at,
      ended_at: tx.now,
    },
  });
  tx.putOp({ op_id: cmd.op_id, order_id: order.order_id, digest: cmd.digest, reply });
}

export function wireOf(d: StepDecision, decisionId: string): NonNullable<CompleteReply["decision"]> {
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
export function logDecision(tx: Tx, d: StepDecision, decisionId: string, order: Order, reported: string | null) {
  tx.emit("policy.decided", {
    decision: {
      decision_id: decisionId,
      team_id: tx.run.team_id,
      run_id: tx.run.run_id,
      task_id: order.task_id,
      inputs: decisionLogInputs(d, reported),
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

/** This file's run operations (reducer.ts joins every concern's table). */
export const ATTEMPT_STEPS = { complete } satisfies StepTable;
