// The gate state machine (pure): arming a gate, recording one decision, and approvals that arrive before their gate.
// It works on a GateHost (the run's transaction) and leaves what a decision does to the guarded thing to the host.
import type { EventFields, TaskRef } from "../../../contracts/event-fields";
import type { AppError } from "../../errors";
import { stableId } from "../../lib/hash";
import type { ApprovalRow } from "../runs/domain";
import { missingAcks } from "./deploy-acks";
import { gateDigest } from "./digest";
import type { EarlyApproval, Gate, GateDecision, GateStatus, GateSubject } from "./model";
import { fallbackDenies, fallbackNote, outageFallbackInForce } from "./outage";
import { channelFor, type DecisionChannel, gateOutcome, OUTAGE_APPROVER, type Resolution } from "./outcome";
import { type ActiveGateRules, resolveGate } from "./rules";
import { earlyView, gateView } from "./views";

/** The narrow interface the machine needs from the run it lives in. */
export interface GateHost {
  readonly now: number;
  readonly run: { run_id: string; team_id: string; seq: number };
  gate(id: string): Gate | undefined;
  putGate(gate: Gate): void;
  earlyFor(id: string): EarlyApproval | undefined;
  putEarly(e: EarlyApproval): void;
  dropEarly(id: string): void;
  /** whether the run has announced this op (see "announced op" in docs/glossary.md): only those take early approvals */
  announced(opId: string): boolean;
  emit<T extends "gate.opened" | "gate.decided" | "approval.queued">(type: T, fields: EventFields<T>): unknown;
  /** an append-only approval row for D1 */
  recordApproval(row: ApprovalRow): void;
  audit(actor: string, action: string, subjectType: string, subjectId: string, metadata: unknown): void;
  /** the event fields that describe what the gate guards (order and task ids) */
  subjectFields(subject: GateSubject): Partial<TaskRef>;
  /**
   * applies a decision to what the gate guards (requeue or dead-letter an order, raise a budget, activate a deploy);
   * `patch`: the approver's correction to the guarded input (edit and retry of a dead_letter_review), checked before
   */
  settle(gate: Gate, decision: GateDecision, approver: string, patch?: Record<string, unknown>): void;
}

export const DECISION_STATUS: Record<GateDecision, GateStatus> = {
  approve_retry: "approved",
  approve_skip: "skipped",
  approve_abort: "aborted",
  deny: "denied",
  auto_allow: "auto_allowed",
  allow: "approved",
};
/** The decision as the approval row and gate.decided event name it: allow | auto_allow | deny | abort | skip | retry. */
const DECISION_RECORD: Record<GateDecision, string> = {
  approve_retry: "retry",
  approve_skip: "skip",
  approve_abort: "abort",
  deny: "deny",
  auto_allow: "auto_allow",
  allow: "allow",
};
export const isAllow = (d: GateDecision) => d === "approve_retry" || d === "auto_allow" || d === "allow";
/** whether a decision lets the guarded thing go on (a skip is an approval to move past it) */
const letsThrough = (d: GateDecision) => isAllow(d) || d === "approve_skip";

/** The gate that guards policy deploys (never pre-approved). */
export const DEPLOY_POLICY_KEY = "policy_deploy";

export const gateIdFor = (runId: string, opId: string, policyKey: string) => stableId("gate", runId, opId, policyKey);

export type OpenGateInput = {
  op_id: string;
  policy_key: string;
  context: Record<string, unknown>;
  subject: GateSubject;
  opener: string;
  /** the admin who created the API key behind the opener's token, if one did */
  openerIssuer?: string;
  rules: ActiveGateRules;
  /** what the rules see instead of `context` (e.g. a budget increase counted cumulatively); `context` is stored */
  resolveWith?: Record<string, unknown>;
  /** the team's escalation timings, read with the rules before the command ran; kept on a hard gate */
  escalate_after_ms?: [number, number] | null;
  /** the MemRL profile version whose decision opened the gate (a failed attempt's escalation), when one did */
  profileVersion?: number;
};

/** Arms a gate: resolves its kind, decides auto/deny gates at once, applies an approval that came first. */
export function openGate(host: GateHost, input: OpenGateInput): Gate {
  const gate_id = gateIdFor(host.run.run_id, input.op_id, input.policy_key);
  const digest = gateDigest(input);
  const resolution = resolveGate(input.rules, input.policy_key, input.resolveWith ?? input.context);
  const gate: Gate = {
    gate_id,
    op_id: input.op_id,
    policy_key: input.policy_key,
    kind: resolution.kind,
    status: "pending",
    rule_id: resolution.rule_id,
    reason: resolution.reason,
    timeout_ms: resolution.timeout_ms,
    deadline_at: resolution.kind === "soft" && resolution.timeout_ms !== null ? host.now + resolution.timeout_ms : null,
    context: input.context,
    subject: input.subject,
    opened_by: input.opener,
    ...(input.openerIssuer === undefined ? {} : { opened_by_issuer: input.openerIssuer }),
    opened_at: host.now,
    seq: host.run.seq + 1,
    decision: null,
    decided_by: null,
    decided_at: null,
    note: null,
    outcome: null,
    channel: null,
    decided_reason: null,
    digest,
    rules_version: input.rules.version,
    ...(input.profileVersion === undefined ? {} : { profile_version: input.profileVersion }),
    early_refused: null,
    ...(resolution.kind === "hard" && input.escalate_after_ms ? { escalate_after_ms: input.escalate_after_ms } : {}),
  };
  host.putGate(gate);
  host.emit("gate.opened", {
    gate_id,
    op_id: gate.op_id,
    policy_key: gate.policy_key,
    kind: gate.kind,
    rule_id: gate.rule_id,
    timeout_ms: gate.timeout_ms,
    deadline_at: gate.deadline_at,
    opened_by: gate.opened_by,
    digest,
    rules_version: gate.rules_version,
    ...(gate.profile_version === undefined ? {} : { profile_version: gate.profile_version }),
    // for consumers that may show it (a Slack card, only when the team opted the policy key in, guard-passed)
    context: gate.context,
    ...host.subjectFields(gate.subject),
  });
  decideOnOpen(host, gate);
  const opened = host.gate(gate_id) as Gate;
  const outage = input.rules.outage;
  // RB-06: while the team's Slack is unreachable, a risky gate is denied as it opens (no human could be asked)
  if (outage && fallbackDenies(opened) && outageFallbackInForce(outage, host.now)) {
    const reason = "approval outage fallback (RB-06): risky gates deny while Slack is unreachable";
    return applyDecision(host, opened, "deny", OUTAGE_APPROVER, fallbackNote(outage.since), reason);
  }
  return opened;
}

/** A freshly armed gate: a deny gate is denied, an early approval applies (unless its approver opened the gate or it
 * approved other content than the gate's), an auto gate allows itself. */
function decideOnOpen(host: GateHost, gate: Gate): void {
  const early = host.earlyFor(gate.gate_id);
  if (early) host.dropEarly(gate.gate_id);
  // an early approval that does not apply is audited and reported on the gate (the run view and the trace show it)
  const ignore = (why: string) => {
    if (!early) return;
    host.audit(early.approver, "approval.ignored", "gate", gate.gate_id, { decision: early.decision, why });
    const { approver, decision, received_at } = early;
    host.putGate({ ...(host.gate(gate.gate_id) as Gate), early_refused: { approver, decision, why, received_at } });
  };
  if (gate.kind === "deny") {
    applyDecision(host, gate, "deny", "policy", null, gate.reason);
    ignore("deny gate");
  } else if (early && early.digest !== gate.digest) {
    ignore(`digest mismatch: approved ${early.digest ?? "no digest"}, the gate's content is ${gate.digest}`);
    if (gate.kind === "auto") applyDecision(host, gate, "allow", "policy", null, gate.reason);
  } else if (early && gate.kind === "hard" && !early.note) {
    ignore("a hard gate needs a note");
  } else if (early && !samePerson(gate, early.approver, early.approver_issuer)) {
    const why = `decided before the gate was armed (received ${early.received_at})`;
    const opts = { channel: early.channel, approverIssuer: early.approver_issuer };
    applyDecision(host, gate, early.decision, early.approver, early.note, why, opts);
  } else {
    ignore("approver opened the gate");
    if (gate.kind === "auto") applyDecision(host, gate, "allow", "policy", null, gate.reason);
  }
}

/** How a decision came about besides who made it: the caller's channel, and whether the gate was decided at all. */
export type DecisionOptions = {
  channel?: DecisionChannel;
  resolution?: Resolution;
  /** the admin who created the API key behind the approver's token: the audit names the person behind the key */
  approverIssuer?: string;
  /** edit and retry: a JSON merge patch to the guarded input, handed to settle */
  patch?: Record<string, unknown>;
};

const issuedBy = (issuer: string | undefined) => (issuer === undefined ? {} : { issued_by: issuer });

/** The append-only approval row of one decision (one per gate: its dedupe key is the run and the gate). */
function approvalRow(
  host: GateHost,
  gate: Gate,
  d: {
    decision: GateDecision;
    approver: string;
    note: string | null;
    reason: string | null;
    outcome: ApprovalRow["outcome"];
    channel: DecisionChannel;
  },
): ApprovalRow {
  return {
    id: stableId("apv", host.run.run_id, gate.gate_id),
    team_id: host.run.team_id,
    run_id: host.run.run_id,
    op_id: gate.op_id,
    gate_id: gate.gate_id,
    policy_key: gate.policy_key,
    decision: DECISION_RECORD[d.decision],
    approver: d.approver,
    reason: d.reason,
    note: d.note,
    dedupe_key: `${host.run.run_id}:${gate.gate_id}`,
    created_at: host.now,
    outcome: d.outcome,
    channel: d.channel,
  };
}

/** Records one decision (append-only approval row, gate.decided) and lets the host apply it to what it guards. */
export function applyDecision(
  host: GateHost,
  gate: Gate,
  decision: GateDecision,
  approver: string,
  note: string | null,
  reason: string | null,
  opts: DecisionOptions = {},
): Gate {
  const status = DECISION_STATUS[decision];
  const channel = channelFor(approver, opts.channel);
  const outcome = gateOutcome({ allows: letsThrough(decision), channel, resolution: opts.resolution ?? "decided" });
  host.putGate({
    ...gate,
    status,
    decision,
    decided_by: approver,
    decided_at: host.now,
    note,
    outcome,
    channel,
    decided_reason: reason,
  });
  host.recordApproval(approvalRow(host, gate, { decision, approver, note, reason, outcome, channel }));
  host.emit("gate.decided", {
    gate_id: gate.gate_id,
    op_id: gate.op_id,
    policy_key: gate.policy_key,
    kind: gate.kind,
    // the original reason and what the gate guards: a decided card keeps saying why it was asked and what happened
    rule_id: gate.rule_id,
    subject_type: gate.subject.type,
    status,
    decision: DECISION_RECORD[decision],
    decided_by: approver,
    opened_by: gate.opened_by,
    latency_ms: host.now - gate.opened_at,
    outcome,
    channel,
    ...host.subjectFields(gate.subject),
  });
  host.audit(approver, "gate.decided", "gate", gate.gate_id, {
    ...issuedBy(opts.approverIssuer),
    outcome,
    channel,
    decision: DECISION_RECORD[decision],
    policy_key: gate.policy_key,
    op_id: gate.op_id,
  });
  host.settle(gate, decision, approver, opts.patch);
  return host.gate(gate.gate_id) as Gate;
}

/**
 * One decision as the run receives it: what an early approval keeps (op, policy key, decision, approver and the key
 * issuer behind them, note, the digest the approver saw — required before the gate is armed — and channel), plus
 * edit and retry's `patch` (dead_letter_review only: a JSON merge patch to the order's input, bound to `digest`).
 */
export type GateDecisionRequest = Omit<EarlyApproval, "gate_id" | "received_at"> & { patch?: Record<string, unknown> };

type Decided = ReturnType<typeof gateView> | ReturnType<typeof earlyView>;

/**
 * The two-person rule: an identity issued by an API key is the same person as the admin who created the key, so the
 * opener and the approver are one person when any name of one (subject, key creator) is a name of the other.
 */
export function samePerson(gate: Pick<Gate, "opened_by" | "opened_by_issuer">, approver: string, issuer?: string) {
  const opener = [gate.opened_by, gate.opened_by_issuer];
  return opener.includes(approver) || (issuer !== undefined && opener.includes(issuer));
}

/** An approver's decision (POST /v1/approvals): applied to a pending gate, or kept until the gate is armed. */
export function decideGate(
  host: GateHost,
  req: GateDecisionRequest,
  stopped: boolean,
): { ok: false; error: AppError } | Decided {
  if (req.decision === "auto_allow" || req.decision === "allow") {
    const message = `${req.decision} is reserved for the gate's own timer or policy`;
    return { ok: false, error: { code: "rejected", message, ruleIds: ["gates.reserved_decision"] } };
  }
  const gate_id = gateIdFor(host.run.run_id, req.op_id, req.policy_key);
  const gate = host.gate(gate_id);
  if (!gate) {
    if (req.patch !== undefined) {
      const message = "a corrected input is given only for an open dead_letter_review gate";
      return { ok: false, error: { code: "conflict", message } };
    }
    return keepEarly(host, gate_id, req, stopped);
  }
  if (samePerson(gate, req.approver, req.approver_issuer)) {
    const message = "nobody approves a gate they opened, neither directly nor through an API key one of them created";
    return { ok: false, error: { code: "forbidden", message } };
  }
  if (gate.status !== "pending") {
    if (gate.decision === req.decision && gate.decided_by === req.approver) return gateView(host.run.run_id, gate);
    return { ok: false, error: { code: "conflict", message: `gate ${gate_id} is already ${gate.status}` } };
  }
  if (gate.kind === "hard" && !req.note?.trim()) return noteRequired(gate);
  const unacknowledged = req.decision === "approve_retry" ? missingAcks(gate.context, req.note) : [];
  if (unacknowledged.length > 0) return acksMissing(gate, unacknowledged);
  if (req.digest !== undefined && req.digest !== gate.digest) {
    const message = `gate ${gate_id} content has digest ${gate.digest}, not the ${req.digest} you approved: read it again`;
    return { ok: false, error: { code: "conflict", message } };
  }
  if (req.patch !== undefined) {
    const refused = patchRefusal(gate, req);
    if (refused) return { ok: false, error: refused };
  }
  const opts = { channel: req.channel, approverIssuer: req.approver_issuer, patch: req.patch };
  return gateView(host.run.run_id, applyDecision(host, gate, req.decision, req.approver, req.note, null, opts));
}

/**
 * Edit and retry is for a dead_letter_review gate, decided approve_retry, by an approver who names the digest of the
 * content they corrected (so a patch never lands on content they did not see).
 */
function patchRefusal(gate: Gate, req: GateDecisionRequest): AppError | null {
  const issue = (path: string, message: string): AppError => ({
    code: "validation_failed",
    message,
    issues: [{ path, message }],
  });
  if (gate.policy_key !== DEAD_LETTER_REVIEW) return issue("patch", `only a ${DEAD_LETTER_REVIEW} gate takes a patch`);
  if (req.decision !== "approve_retry") return issue("patch", "a patch goes with approve_retry (edit and retry)");
  if (req.digest === undefined) return issue("digest", "a patch names the digest of the gate content it corrects");
  return null;
}

/** The hard review of a wrong_value dead letter (docs/runs.md "Dead-letter review"); edit and retry applies to it. */
export const DEAD_LETTER_REVIEW = "dead_letter_review";

/** A hard gate is decided by a human who says why: 400 naming `note`. */
function noteRequired(gate: Gate): { ok: false; error: AppError } {
  const message = `note is required to decide hard gate ${gate.gate_id} (${gate.policy_key})`;
  return { ok: false, error: { code: "validation_failed", message, issues: [{ path: "note", message }] } };
}

/** A promotion whose replay changed many decisions of a class is approved only by a note acknowledging each one. */
function acksMissing(gate: Gate, missing: string[]): { ok: false; error: AppError } {
  const message = `approving ${gate.gate_id} needs the note to acknowledge each failure class whose decisions change: missing ${missing.map((c) => `ack:${c}`).join(", ")}`;
  return { ok: false, error: { code: "validation_failed", message, issues: [{ path: "note", message }] } };
}

/** A decision for a gate not armed yet: kept (once per gate) and applied when it opens. */
function keepEarly(
  host: GateHost,
  gate_id: string,
  req: GateDecisionRequest,
  stopped: boolean,
): { ok: false; error: AppError } | Decided {
  const early = host.earlyFor(gate_id);
  if (early) {
    if (early.decision === req.decision && early.approver === req.approver) return earlyView(host.run.run_id, early);
    const message = `an approval for this gate is already waiting (${early.decision} by ${early.approver})`;
    return { ok: false, error: { code: "conflict", message } };
  }
  if (stopped) return { ok: false, error: { code: "conflict", message: "run is stopped" } };
  if (req.policy_key === DEPLOY_POLICY_KEY) {
    // nobody approves a deploy before its content exists: the version is proposed first, then decided
    const message = "a policy_deploy gate is decided only after its version is proposed";
    return { ok: false, error: { code: "conflict", message } };
  }
  if (!host.announced(req.op_id)) {
    // nobody approves an op the run has not shown yet: its content could be anything
    const message = `op_id ${req.op_id} has not been announced in this run (no attempt, gate or dead letter names it)`;
    return { ok: false, error: { code: "conflict", message } };
  }
  if (!req.digest) {
    const message = "an approval before the gate is armed names the digest of the gate content it approves";
    return { ok: false, error: { code: "validation_failed", message, issues: [{ path: "digest", message }] } };
  }
  const queued: EarlyApproval = {
    gate_id,
    op_id: req.op_id,
    policy_key: req.policy_key,
    decision: req.decision,
    approver: req.approver,
    ...(req.approver_issuer === undefined ? {} : { approver_issuer: req.approver_issuer }),
    note: req.note,
    received_at: host.now,
    digest: req.digest,
    ...(req.channel ? { channel: req.channel } : {}),
  };
  host.putEarly(queued);
  const { op_id, policy_key, decision, approver } = req;
  host.emit("approval.queued", { gate_id, op_id, policy_key, decision, approver, digest: req.digest });
  host.audit(approver, "approval.queued", "gate", gate_id, {
    op_id,
    policy_key,
    decision,
    digest: req.digest,
    ...issuedBy(req.approver_issuer),
  });
  return earlyView(host.run.run_id, queued);
}
