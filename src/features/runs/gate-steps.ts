// Gate steps of the run reducer (pure): arming a gate, recording one decision and applying it to what it guards.

import { stableId } from "../../lib/hash";
import { type ActiveGateRules, resolveGate } from "../gates/rules";
import { canonicalJson } from "../policy/decision-log";
import type { CommandOf, EarlyApproval, Failure, Gate, GateDecision, GateStatus, GateSubject } from "./model";
import type { RunOpReply } from "./operations";
import {
  conflict,
  deadLetterOrder,
  deployTable,
  forbidden,
  gateIdFor,
  notFound,
  rejected,
  type Tx,
  taskFields,
} from "./tx";
import { earlyView, gateOpenView, gateView } from "./views";

export const DECISION_STATUS: Record<GateDecision, GateStatus> = {
  approve_retry: "approved",
  approve_skip: "skipped",
  approve_abort: "aborted",
  deny: "denied",
  auto_allow: "auto_allowed",
  allow: "approved",
};
/** approval_event.decision (DESIGN §3: allow | auto_allow | deny | abort | skip | retry) */
const DECISION_RECORD: Record<GateDecision, string> = {
  approve_retry: "retry",
  approve_skip: "skip",
  approve_abort: "abort",
  deny: "deny",
  auto_allow: "auto_allow",
  allow: "allow",
};
const isAllow = (d: GateDecision) => d === "approve_retry" || d === "auto_allow" || d === "allow";

type OpenGateInput = {
  op_id: string;
  policy_key: string;
  context: Record<string, unknown>;
  subject: GateSubject;
  opener: string;
  rules: ActiveGateRules;
};

/** Arms a gate: resolves its kind, decides auto/deny gates at once, applies an approval that came first. */
export function openGate(tx: Tx, input: OpenGateInput): Gate {
  const gate_id = gateIdFor(tx.run.run_id, input.op_id, input.policy_key);
  const resolution = resolveGate(input.rules, input.policy_key, input.context);
  const gate: Gate = {
    gate_id,
    op_id: input.op_id,
    policy_key: input.policy_key,
    kind: resolution.kind,
    status: "pending",
    rule_id: resolution.rule_id,
    reason: resolution.reason,
    timeout_ms: resolution.timeout_ms,
    deadline_at: resolution.kind === "soft" && resolution.timeout_ms !== null ? tx.now + resolution.timeout_ms : null,
    context: input.context,
    subject: input.subject,
    opened_by: input.opener,
    opened_at: tx.now,
    seq: tx.run.seq + 1,
    decision: null,
    decided_by: null,
    decided_at: null,
    note: null,
  };
  tx.putGate(gate);
  tx.emit("gate.opened", {
    gate_id,
    op_id: gate.op_id,
    policy_key: gate.policy_key,
    kind: gate.kind,
    rule_id: gate.rule_id,
    timeout_ms: gate.timeout_ms,
    deadline_at: gate.deadline_at,
    opened_by: gate.opened_by,
    ...subjectFields(tx, gate.subject),
  });
  const early = tx.earlyFor(gate_id);
  if (gate.kind === "deny") {
    applyDecision(tx, gate, "deny", "policy", null, resolution.reason);
    if (early) {
      tx.dropEarly(gate_id);
      tx.audit(early.approver, "approval.ignored", "gate", gate_id, { decision: early.decision, why: "deny gate" });
    }
  } else if (early && early.approver !== gate.opened_by) {
    tx.dropEarly(gate_id);
    applyDecision(
      tx,
      gate,
      early.decision,
      early.approver,
      early.note,
      `decided before the gate was armed (received ${early.received_at})`,
    );
  } else {
    if (early) {
      tx.dropEarly(gate_id);
      tx.audit(early.approver, "approval.ignored", "gate", gate_id, {
        decision: early.decision,
        why: "approver opened the gate",
      });
    }
    if (gate.kind === "auto") applyDecision(tx, gate, "allow", "policy", null, resolution.reason);
  }
  return tx.gate(gate_id) as Gate;
}

function subjectFields(tx: Tx, subject: GateSubject): Record<string, unknown> {
  if (subject.type === "order" || subject.type === "dead_letter") {
    const order = tx.order(subject.order_id);
    return order ? taskFields(tx.run, order) : { order_id: subject.order_id };
  }
  return {};
}

/** Records one decision (append-only approval_event) and applies it to what the gate guards. */
export function applyDecision(
  tx: Tx,
  gate: Gate,
  decision: GateDecision,
  approver: string,
  note: string | null,
  reason: string | null,
): Gate {
  const decided: Gate = {
    ...gate,
    status: DECISION_STATUS[decision],
    decision,
    decided_by: approver,
    decided_at: tx.now,
    note,
  };
  tx.putGate(decided);
  tx.record({
    t: "approval",
    row: {
      id: stableId("apv", tx.run.run_id, gate.gate_id),
      team_id: tx.run.team_id,
      run_id: tx.run.run_id,
      op_id: gate.op_id,
      gate_id: gate.gate_id,
      policy_key: gate.policy_key,
      decision: DECISION_RECORD[decision],
      approver,
      reason,
      note,
      dedupe_key: `${tx.run.run_id}:${gate.gate_id}`,
      created_at: tx.now,
    },
  });
  tx.emit("gate.decided", {
    gate_id: gate.gate_id,
    op_id: gate.op_id,
    policy_key: gate.policy_key,
    kind: gate.kind,
    status: decided.status,
    decision: DECISION_RECORD[decision],
    decided_by: approver,
    latency_ms: tx.now - gate.opened_at,
    ...subjectFields(tx, gate.subject),
  });
  const subject = gate.subject;
  switch (subject.type) {
    case "order": {
      const order = tx.order(subject.order_id);
      if (order?.status !== "GATED" || order.gate_id !== gate.gate_id) break;
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
        deadLetterOrder(
          tx,
          order,
          gate.op_id,
          `gate_${DECISION_STATUS[decision]}:${gate.policy_key}`,
          order.last?.failure_class ?? null,
          null,
        );
      }
      break;
    }
    case "dead_letter": {
      if (!isAllow(decision)) break;
      const dl = tx.deadLetter(subject.dead_letter_id);
      if (!dl || dl.resolved_at !== null) break;
      tx.putDeadLetter({ ...dl, resolved_at: tx.now, resolver: approver });
      tx.record({ t: "dead_letter_resolved", id: dl.id, resolved_at: tx.now, resolver: approver });
      const order = tx.order(dl.order_id);
      if (order && order.status === "DEAD_LETTER" && order.dead_letter_id === dl.id) {
        tx.putOrder({ ...order, status: "QUEUED", reissued: true, dead_letter_id: null, not_before: null });
      }
      tx.emit("dead_letter.reissued", {
        dead_letter_id: dl.id,
        order_id: dl.order_id,
        task_id: dl.task_id,
        gate_id: gate.gate_id,
        reason_code: dl.reason_code,
        resolver: approver,
      });
      break;
    }
    case "budget": {
      if (!isAllow(decision)) break;
      const factor = 1 + subject.increase_pct / 100;
      const b = tx.run.budget;
      const budget = {
        input_tokens: Math.floor(b.input_tokens * factor),
        output_tokens: Math.floor(b.output_tokens * factor),
        total_tokens: b.total_tokens === null ? null : Math.floor(b.total_tokens * factor),
      };
      tx.patchRun({ budget });
      tx.emit("budget.increased", { gate_id: gate.gate_id, increase_pct: subject.increase_pct, from: b, to: budget });
      break;
    }
    case "deploy": {
      if (decision === "approve_retry") {
        tx.activate({ target: subject.target, team_id: tx.run.team_id, version: subject.version });
        tx.audit(approver, `policy.${subject.target}.activated`, deployTable(subject.target), String(subject.version), {
          gate_id: gate.gate_id,
        });
        tx.emit("policy.deploy_approved", {
          target: subject.target,
          version: subject.version,
          gate_id: gate.gate_id,
          approver,
        });
      } else {
        tx.audit(approver, `policy.${subject.target}.rejected`, deployTable(subject.target), String(subject.version), {
          gate_id: gate.gate_id,
          decision,
        });
      }
      break;
    }
    case "api":
      break;
  }
  return tx.gate(gate.gate_id) as Gate;
}

export function openGateApi(tx: Tx, cmd: CommandOf<"open_gate">): Failure | RunOpReply<"open_gate"> {
  if (cmd.policy_key === "policy_deploy") {
    return forbidden("policy_deploy gates are opened by PUT /v1/policy/profile or PUT /v1/policy/gates");
  }
  const gate_id = gateIdFor(tx.run.run_id, cmd.op_id, cmd.policy_key);
  const existing = tx.gate(gate_id);
  if (existing) {
    if (canonicalJson(existing.context) !== canonicalJson(cmd.context)) {
      return conflict(`gate for op_id ${cmd.op_id} and ${cmd.policy_key} already exists with a different context`);
    }
    return gateOpenView(existing);
  }
  if (tx.run.status === "STOPPED") return conflict("run is stopped");
  let subject: GateSubject = { type: "api" };
  if (cmd.policy_key === "dead_letter_reissue") {
    const wanted = cmd.context.dead_letter_id;
    const dl =
      typeof wanted === "string"
        ? tx.deadLetter(wanted)
        : tx.allDeadLetters().find((d) => d.op_id === cmd.op_id && d.resolved_at === null);
    if (!dl || dl.resolved_at !== null) {
      return notFound(`no unresolved dead letter ${typeof wanted === "string" ? wanted : `for op_id ${cmd.op_id}`}`);
    }
    subject = { type: "dead_letter", dead_letter_id: dl.id, order_id: dl.order_id };
  } else if (cmd.policy_key === "budget_increase") {
    const pct = cmd.context.increase_pct;
    if (typeof pct === "number" && Number.isFinite(pct) && pct > 0 && pct <= 1000)
      subject = { type: "budget", increase_pct: pct };
  }
  const gate = openGate(tx, {
    op_id: cmd.op_id,
    policy_key: cmd.policy_key,
    context: cmd.context,
    subject,
    opener: cmd.actor.subject,
    rules: cmd.gate_rules,
  });
  return gateOpenView(gate);
}

export function decideGateApi(tx: Tx, cmd: CommandOf<"decide_gate">): Failure | RunOpReply<"decide_gate"> {
  if (cmd.decision === "auto_allow" || cmd.decision === "allow") {
    return rejected(`${cmd.decision} is reserved for the gate's own timer or policy`, ["gates.reserved_decision"]);
  }
  const gate_id = gateIdFor(tx.run.run_id, cmd.op_id, cmd.policy_key);
  const gate = tx.gate(gate_id);
  if (!gate) {
    const early = tx.earlyFor(gate_id);
    if (early) {
      if (early.decision === cmd.decision && early.approver === cmd.actor.subject)
        return earlyView(tx.run.run_id, early);
      return conflict(`an approval for this gate is already waiting (${early.decision} by ${early.approver})`);
    }
    if (tx.run.status === "STOPPED") return conflict("run is stopped");
    const queued: EarlyApproval = {
      gate_id,
      op_id: cmd.op_id,
      policy_key: cmd.policy_key,
      decision: cmd.decision,
      approver: cmd.actor.subject,
      note: cmd.note,
      received_at: tx.now,
    };
    tx.putEarly(queued);
    tx.emit("approval.queued", {
      gate_id,
      op_id: cmd.op_id,
      policy_key: cmd.policy_key,
      decision: cmd.decision,
      approver: cmd.actor.subject,
    });
    tx.audit(cmd.actor.subject, "approval.queued", "gate", gate_id, {
      op_id: cmd.op_id,
      policy_key: cmd.policy_key,
      decision: cmd.decision,
    });
    return earlyView(tx.run.run_id, queued);
  }
  if (gate.opened_by === cmd.actor.subject) return forbidden("nobody approves a gate they opened");
  if (gate.status !== "pending") {
    if (gate.decision === cmd.decision && gate.decided_by === cmd.actor.subject) return gateView(tx.run.run_id, gate);
    return conflict(`gate ${gate_id} is already ${gate.status}`);
  }
  const decided = applyDecision(tx, gate, cmd.decision, cmd.actor.subject, cmd.note, null);
  return gateView(tx.run.run_id, decided);
}
