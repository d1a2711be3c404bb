// The gates feature's pure entry for the run reducer: gate state, the gate state machine, gate views, gate rules and
// the deploy-target registry. No I/O and no routes, so the runs domain can use it without importing the HTTP side.

import type { SlaBreach } from "./store/gate-sla-store-port";

export type { ApprovalRow } from "../runs/domain";
export {
  DEPLOY_TARGET_SPECS,
  DEPLOY_TARGETS,
  type DeployNeeds,
  type DeployTarget,
  deployOpId,
  isDeployOpOf,
  SLACK_CHANGE_POLICY_KEY,
} from "./deploy-targets";
export { gateDigest } from "./digest";
export { ESCALATION_AFTER_MS, type Escalation, escalate, nextEscalation } from "./escalation";
export type { GateRuleCache } from "./gate-rule-cache";
export {
  applyDecision,
  DEAD_LETTER_REVIEW,
  DECISION_STATUS,
  DEPLOY_POLICY_KEY,
  decideGate,
  type GateHost,
  gateIdFor,
  isAllow,
  type OpenGateInput,
  openGate,
} from "./machine";
export type { EarlyApproval, Gate, GateDecision, GateStatus, GateSubject } from "./model";
export { fallbackDeniesIndexed, fallbackNote, outageFallbackInForce } from "./outage";
export {
  CALLER_CHANNELS,
  DECISION_CHANNELS,
  type DecisionChannel,
  GATE_OUTCOMES,
  type GateOutcome,
  gateOutcome,
  OUTAGE_APPROVER,
  ROLLBACK_APPROVER,
} from "./outcome";
export { type ActiveGateRules, type GateKind, resolveGate } from "./rules";
export { ApprovalResponse, DeployAccepted, GateView, GateViewSchema, OpenGateResponse } from "./schemas";
export {
  ackDueAt,
  DEFAULT_GATE_SLA,
  escalationPings,
  GateSlaSettings,
  type GateSlaState,
  gateSla,
  type MeasuredGate,
  measureGates,
  openBreaches,
  resolveDueAt,
  SEVERITIES,
  type Severity,
  severityOf,
  slaApplies,
  slaFigures,
} from "./sla";
export { earlyView, gateOpenView, gateView } from "./views";

/** The key claimAlerts answers for a gate's breach. */
export const breachKey = (gateId: string, breach: SlaBreach) => `${gateId}:${breach}`;
export type * from "./store/deploy-approvers-port";
export type * from "./store/gate-sla-store-port";
