// Gate state (pure data): a gate, what it guards, its decisions, and an approval that arrived before its gate.
import type { DeployTarget } from "./deploy-targets";
import type { DecisionChannel, GateOutcome } from "./outcome";
import type { GateKind } from "./rules";

export type GateStatus = "pending" | "approved" | "auto_allowed" | "denied" | "aborted" | "skipped";
/** ApprovalAction v1 decisions plus the policy's own "allow" for auto gates */
export type GateDecision = "approve_retry" | "approve_skip" | "approve_abort" | "auto_allow" | "deny" | "allow";

/** What a gate guards; the run applies a decision to it (GateHost.settle). */
export type GateSubject =
  | { type: "api" }
  | { type: "order"; order_id: string }
  | { type: "dead_letter"; dead_letter_id: string; order_id: string }
  | { type: "budget"; increase_pct: number }
  | { type: "deploy"; target: DeployTarget; version: number };

export type Gate = {
  gate_id: string;
  op_id: string;
  policy_key: string;
  kind: GateKind;
  status: GateStatus;
  rule_id: string;
  reason: string;
  timeout_ms: number | null;
  deadline_at: number | null;
  context: Record<string, unknown>;
  subject: GateSubject;
  opened_by: string;
  /** the admin who created the API key the opener's token came from (two-person rule) */
  opened_by_issuer?: string;
  opened_at: number;
  /** sequence number of its gate.opened event: the order gates were opened in */
  seq: number;
  decision: GateDecision | null;
  decided_by: string | null;
  decided_at: number | null;
  note: string | null;
  /** how it ended (null while pending); optional only on gates stored before outcomes existed */
  outcome?: GateOutcome | null;
  /** where the decision came from (null while pending) */
  channel?: DecisionChannel | null;
  /** why it was decided the way it was (the timer, the stop, the early approval), as the approval row records it */
  decided_reason?: string | null;
  /** sha256 of the gate's content (gateDigest): what an approver saw and approves */
  digest?: string;
  /** version of the team gate rules that resolved the gate's kind (0 = the default matrix) */
  rules_version?: number;
  /** version of the MemRL profile whose decision opened the gate (a failed attempt escalated by the policy) */
  profile_version?: number;
  /** an early approval that did not apply when the gate opened, and why (reported in the views) */
  early_refused?: { approver: string; decision: GateDecision; why: string; received_at: number } | null;
  /** escalation levels fired while the hard gate stayed open (gates/escalation.ts); absent until one fires */
  escalations?: { level: 1 | 2; at: number }[];
  /** the team's escalation timings when the gate opened ([level 1, level 2] ms after opening); absent = the defaults */
  escalate_after_ms?: [number, number];
};

/** An approval that arrived before its gate was armed; applied when the gate opens. */
export type EarlyApproval = {
  gate_id: string;
  op_id: string;
  policy_key: string;
  decision: GateDecision;
  approver: string;
  /** the admin who created the API key the approver's token came from */
  approver_issuer?: string;
  note: string | null;
  received_at: number;
  /** the gate content digest the approver saw; the approval applies only to a gate with this digest */
  digest?: string;
  /** the channel the approver used */
  channel?: DecisionChannel;
};
