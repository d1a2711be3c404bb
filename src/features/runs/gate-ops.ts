// The run's side of gates (pure): the run transaction as the gate machine's host, what a decision does to the thing a
// gate guards (an order, a dead letter, the budget, a deploy), and the open_gate / decide_gate steps.
import type { TaskRef } from "../../../contracts/event-fields";
import { canonicalJson } from "../../lib/digest";

import {
  DEAD_LETTER_REVIEW,
  DECISION_STATUS,
  DEPLOY_TARGET_SPECS,
  decideGate,
  type Gate,
  type GateDecision,
  type GateHost,
  type GateSubject,
  gateIdFor,
  gateOpenView,
  isAllow,
  openGate,
} from "../gates/domain";
import { patchProblem, settleReview } from "./dead-letter-review";
import { reopenSkipped } from "./items";
import type { CommandOf, Failure } from "./model";
import type { RunOpReply } from "./operations";
import { conflict, deadLetterOrder, forbidden, notFound, type StepTable, type Tx, taskFields } from "./tx";

/** The run's transaction as the gate machine sees it. */
export function gateHost(tx: Tx): GateHost {
  return {
    get now() {
      return tx.now;
    },
    get run() {
      return tx.run;
    },
    gate: tx.gate,
    putGate: (g) => tx.putGate(g),
    earlyFor: tx.earlyFor,
    putEarly: (e) => tx.putEarly(e),
    dropEarly: (id) => tx.dropEarly(id),
    announced: (opId) => announced(tx, opId),
    emit: (type, fields) => tx.emit(type, fields),
    recordApproval: (row) => tx.record({ t: "approval", row }),
    audit: (...args) => tx.audit(...args),
    subjectFields: (subject) => subjectFields(tx, subject),
    settle: (gate, decision, approver, patch) => settle(tx, gate, decision, approver, patch),
  };
}

/**
 * An announced op: an op_id the run has already shown — a recorded completion (attempt), a gate (any policy_key) or a
 * dead letter names it. Only those take approvals before their gate is armed (docs/glossary.md, "announced op").
 */
function announced(tx: Tx, opId: string): boolean {
  return (
    tx.op(opId) !== undefined ||
    tx.allGates().some((g) => g.op_id === opId) ||
    tx.allDeadLetters().some((d) => d.op_id === opId)
  );
}

function subjectFields(tx: Tx, subject: GateSubject): Partial<TaskRef> {
  if (subject.type === "order" || subject.type === "dead_letter") {
    const order = tx.order(subject.order_id);
    return order ? taskFields(tx.run, order) : { order_id: subject.order_id };
  }
  return {};
}

function settle(tx: Tx, gate: Gate, decision: GateDecision, approver: string, patch?: Record<string, unknown>): void {
  const subject = gate.subject;
  if (gate.policy_key === DEAD_LETTER_REVIEW) settleReview(tx, gate, decision, approver, patch);
  else if (subject.type === "order") settleOrder(tx, gate, subject.order_id, decision);
  else if (subject.type === "dead_letter") settleDeadLetter(tx, gate, subject.dead_letter_id, decision, approver);
  else if (subject.type === "budget") settleBudget(tx, gate, subject.increase_pct, decision);
  else if (subject.type === "deploy") settleDeploy(tx, gate, subject, decision, approver);
}

/** A gated order: an allow requeues it for a stricter attempt, a skip skips it, anything else dead-letters it. */
function settleOrder(tx: Tx, gate: Gate, orderId: string, decision: GateDecision): void {
  const order = tx.order(orderId);
  if (order?.status !== "GATED" || order.gate_id !== gate.gate_id) return;
  if (isAllow(decision)) {
    tx.putOrder({ ...order, status: "QUEUED", gate_id: null, strict: true, not_before: null });
    tx.emit("task.requeued", {
      ...taskFields(tx.run, order),
      reason: "gate_allowed",
      gate_id: gate.gate_id,
      strict: true,
    });
  } else if (decision === "approve_skip") {
    tx.putOrder({ ...order, status: "SKIPPED", gate_id: null });
    tx.emit("task.skipped", { ...taskFields(tx.run, order), gate_id: gate.gate_id });
  } else {
    const reason = `gate_${DECISION_STATUS[decision]}:${gate.policy_key}`;
    deadLetterOrder(tx, order, gate.op_id, reason, order.last?.failure_class ?? null, null);
  }
}

/** An allowed dead_letter_reissue gate resolves the dead letter and requeues its order for one attempt. */
function settleDeadLetter(tx: Tx, gate: Gate, id: string, decision: GateDecision, approver: string): void {
  if (!isAllow(decision)) return;
  const dl = tx.deadLetter(id);
  if (!dl || dl.resolved_at !== null) return;
  tx.putDeadLetter({ ...dl, resolved_at: tx.now, resolver: approver });
  tx.record({ t: "dead_letter_resolved", id: dl.id, resolved_at: tx.now, resolver: approver });
  const order = tx.order(dl.order_id);
  if (order && order.status === "DEAD_LETTER" && order.dead_letter_id === dl.id) {
    tx.putOrder({ ...order, status: "QUEUED", reissued: true, dead_letter_id: null, not_before: null });
    reopenSkipped(tx, order.order_id);
  }
  tx.emit("dead_letter.reissued", {
    dead_letter_id: dl.id,
    order_id: dl.order_id,
    task_id: dl.task_id,
    gate_id: gate.gate_id,
    reason_code: dl.reason_code,
    resolver: approver,
  });
}

/** The budget increase (percent of the run's original budget) approved so far. */
export const approvedIncreasePct = (tx: Tx) => tx.run.budget_increase_pct ?? 0;

/** Budget increases still waiting on a gate, in percent: they count against the cap before they are decided. */
const pendingIncreasePct = (tx: Tx) =>
  tx
    .allGates()
    .filter((g) => g.status === "pending" && g.subject.type === "budget")
    .reduce((sum, g) => sum + (g.subject.type === "budget" ? g.subject.increase_pct : 0), 0);

/**
 * An allowed budget_increase gate raises every token budget of the run: increases add up against the budget the run
 * started with, so ten +20 % gates are a +200 % increase (and the rules saw each as cumulative when it opened).
 */
function settleBudget(tx: Tx, gate: Gate, increasePct: number, decision: GateDecision): void {
  if (!isAllow(decision)) return;
  const b = tx.run.budget;
  const base = tx.run.budget_base ?? b;
  const total = approvedIncreasePct(tx) + increasePct;
  const factor = 1 + total / 100;
  const budget = {
    input_tokens: Math.floor(base.input_tokens * factor),
    output_tokens: Math.floor(base.output_tokens * factor),
    total_tokens: base.total_tokens === null ? null : Math.floor(base.total_tokens * factor),
  };
  tx.patchRun({ budget, budget_base: base, budget_increase_pct: total });
  tx.emit("budget.increased", { gate_id: gate.gate_id, increase_pct: increasePct, from: b, to: budget });
}

/** An approved policy_deploy gate activates its version (through the outbox); any other decision rejects it. */
function settleDeploy(
  tx: Tx,
  gate: Gate,
  subject: Extract<GateSubject, { type: "deploy" }>,
  decision: GateDecision,
  approver: string,
): void {
  const { target, version } = subject;
  const table = DEPLOY_TARGET_SPECS[target].table;
  if (decision === "approve_retry") {
    tx.activate({ target, team_id: tx.run.team_id, version });
    tx.audit(approver, `policy.${target}.activated`, table, String(version), { gate_id: gate.gate_id });
    tx.emit("policy.deploy_approved", { target, version, gate_id: gate.gate_id, approver });
  } else {
    tx.audit(approver, `policy.${target}.rejected`, table, String(version), { gate_id: gate.gate_id, decision });
  }
}

/** POST /v1/runs/:run_id/gates: idempotent by op_id + policy_key; dead_letter_reissue and budget_increase gates
 * guard a dead letter or the budget, any other gate only answers the caller. */
export function openGateApi(tx: Tx, cmd: CommandOf<"open_gate">): Failure | RunOpReply<"open_gate"> {
  if (cmd.policy_key === "policy_deploy") {
    return forbidden("policy_deploy gates are opened by PUT /v1/policy/profile or PUT /v1/policy/gates");
  }
  const existing = tx.gate(gateIdFor(tx.run.run_id, cmd.op_id, cmd.policy_key));
  if (existing) {
    if (canonicalJson(existing.context) !== canonicalJson(cmd.context)) {
      return conflict(`gate for op_id ${cmd.op_id} and ${cmd.policy_key} already exists with a different context`);
    }
    return gateOpenView(existing);
  }
  if (tx.run.status === "STOPPED") return conflict("run is stopped");
  const subject = apiSubject(tx, cmd);
  if ("ok" in subject) return subject;
  const gate = openGate(gateHost(tx), {
    op_id: cmd.op_id,
    policy_key: cmd.policy_key,
    context: cmd.context,
    subject,
    opener: cmd.actor.subject,
    openerIssuer: cmd.actor.issued_by,
    rules: cmd.gate_rules,
    escalate_after_ms: cmd.escalate_after_ms,
    // the rules judge a budget increase by where it takes the run: everything approved or pending plus this one
    ...(subject.type === "budget"
      ? {
          resolveWith: {
            ...cmd.context,
            increase_pct: approvedIncreasePct(tx) + pendingIncreasePct(tx) + subject.increase_pct,
            requested_increase_pct: subject.increase_pct,
          },
        }
      : {}),
  });
  return gateOpenView(gate);
}

function apiSubject(tx: Tx, cmd: CommandOf<"open_gate">): GateSubject | Failure {
  if (cmd.policy_key === "dead_letter_reissue") {
    const wanted = cmd.context.dead_letter_id;
    const dl =
      typeof wanted === "string"
        ? tx.deadLetter(wanted)
        : tx.allDeadLetters().find((d) => d.op_id === cmd.op_id && d.resolved_at === null);
    if (!dl || dl.resolved_at !== null) {
      return notFound(`no unresolved dead letter ${typeof wanted === "string" ? wanted : `for op_id ${cmd.op_id}`}`);
    }
    // a wrong value is reissued only by the human review, never by the soft gate's timer
    const review = tx
      .allGates()
      .find(
        (g) =>
          g.policy_key === DEAD_LETTER_REVIEW &&
          g.status === "pending" &&
          g.subject.type === "dead_letter" &&
          g.subject.dead_letter_id === dl.id,
      );
    if (review)
      return conflict(`dead letter ${dl.id} is under review: decide its ${DEAD_LETTER_REVIEW} gate ${review.gate_id}`);
    return { type: "dead_letter", dead_letter_id: dl.id, order_id: dl.order_id };
  }
  if (cmd.policy_key === "budget_increase") {
    const pct = cmd.context.increase_pct;
    if (typeof pct === "number" && Number.isFinite(pct) && pct > 0 && pct <= 1000)
      return { type: "budget", increase_pct: pct };
  }
  return { type: "api" };
}

/**
 * A team with a deploy-approver roster lets only its members decide deploys: the approver and, for a key-issued
 * identity, the admin who created the key (a non-member cannot lend a member's name to a key). No roster: anyone.
 */
export function onRoster(roster: string[], subject: string, issuer?: string): boolean {
  if (roster.length === 0) return true;
  return roster.includes(subject) && (issuer === undefined || roster.includes(issuer));
}

/** POST /v1/approvals on this run. */
export function decideGateApi(tx: Tx, cmd: CommandOf<"decide_gate">): Failure | RunOpReply<"decide_gate"> {
  const { op_id, policy_key, decision, note, digest, channel, patch } = cmd;
  if (patch !== undefined) {
    const problem = patchProblem(tx, { op_id, policy_key, patch });
    if (problem) return { ok: false, error: problem };
  }
  const req = {
    op_id,
    policy_key,
    decision,
    note,
    digest,
    channel,
    approver: cmd.actor.subject,
    approver_issuer: cmd.actor.issued_by,
    ...(patch === undefined ? {} : { patch }),
  };
  if (tx.run.kind === "control" && !tx.gate(gateIdFor(tx.run.run_id, op_id, policy_key)))
    return conflict("a control run's gates are decided only once proposed");
  if (tx.run.kind === "control" && !onRoster(cmd.deploy_approvers, cmd.actor.subject, cmd.actor.issued_by)) {
    const message = "only the team's deploy approvers (GET /v1/policy/approvers) decide its deploys";
    return { ok: false, error: { code: "forbidden", message } };
  }
  return decideGate(gateHost(tx), req, tx.run.status === "STOPPED");
}

/** This file's run operations (reducer.ts joins every concern's table). */
export const GATE_STEPS = { open_gate: openGateApi, decide_gate: decideGateApi } satisfies StepTable;
