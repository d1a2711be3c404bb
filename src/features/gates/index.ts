// The gates feature's public entry: gate and approval routes, the proposeDeploy use-case other features (policy)
// call, and everything of domain.ts (the pure part the run reducer uses). Other features import gates only from here
// or, for the pure part only, from domain.ts.

import type { GateRuleStore } from "../../ports/gate-rule-store";
import type { RunsService } from "../runs";
import type { DeployNeeds } from "./deploy-targets";
import type { GateRuleCache } from "./gate-rule-cache";

export { type AckNeeds, type Acknowledger, acknowledgeGate, type GateAckAnswer } from "./ack";
export { proposeDeploy, teamWideProposer } from "./deploy";
export * from "./domain";
export { createGateRuleCache } from "./gate-rule-cache";
export type { GateInboxNeeds } from "./inbox-routes";
export { GateListQuery } from "./inbox-schemas";
export { gatesRoutes } from "./routes";
export { DEFAULT_ACTIVE_GATE_RULES } from "./rules";
export { GateParams, OpenGateBody, RunParams as GateRunParams } from "./schemas";
export { type GateSlaNeeds, severityFor, teamSla, teamSlaFigures } from "./sla-use-cases";
export { denyOpenGates, type SystemDenyNeeds } from "./system-deny";
export { listGates, openGate } from "./use-cases";

/** What the gate routes need besides the HTTP basics. */
export type GatesNeeds = DeployNeeds & {
  runs: RunsService;
  gateRules: Pick<GateRuleCache, "get" | "invalidate">;
  gateRuleStore: Pick<GateRuleStore, "addPending" | "activate">;
};
