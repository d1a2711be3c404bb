// The gates feature's public entry: gate and approval routes, the proposeDeploy use-case other features (policy)
// call, and everything of domain.ts (the pure part the run reducer uses). Other features import gates only from here
// or, for the pure part only, from domain.ts.

import { defineFeature } from "../feature";
import type { RunsService } from "../runs";
import type { SlackDeliveryHealth } from "../slack/domain";
import type { TrendGateCheck } from "./deploy";
import type { DeployNeeds } from "./deploy-targets";
import type { GateRuleCache } from "./gate-rule-cache";
import { createGateRuleCache } from "./gate-rule-cache";
import { gateInboxRoutes } from "./inbox-routes";
import { gatesRoutes } from "./routes";
import type { GateRuleStore } from "./store/gate-rule-store-port";

export { type AckNeeds, type Acknowledger, acknowledgeGate, type GateAckAnswer } from "./ack";
export { assertTeamWideProposer, proposeDeploy, type TrendGateCheck, teamWideProposer } from "./deploy";
export * from "./domain";
export { createGateRuleCache } from "./gate-rule-cache";
export type { GateInboxNeeds } from "./inbox-routes";
export { GateListQuery } from "./inbox-schemas";
export { gatesRoutes } from "./routes";

import { approverRoutes } from "./approver-routes";
import { gateSlaRoutes } from "./sla-routes";

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
  /** gate-rule changes pass the trend gate before they are stored (built by the policy feature) */
  trendGate: TrendGateCheck;
};

/** Gates: gate, approval and inbox routes; the gate-rule cache (which also holds the team's approval outage). */
export const gatesFeature = defineFeature({
  name: "gates",
  routes: [gatesRoutes, gateInboxRoutes, approverRoutes, gateSlaRoutes],
  build: {
    // the team's approval outage (RB-06) is read with its gate rules, so opening a gate pays no D1 read of its own
    gateRules: (d: { gateRuleStore: GateRuleStore; slackHealth: Pick<SlackDeliveryHealth, "outage"> }) =>
      createGateRuleCache(d.gateRuleStore, undefined, d.slackHealth),
  },
});
