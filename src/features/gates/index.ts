// The gates feature's public entry: gate and approval routes, the gate rules and their cache, the deploy-target
// registry and the proposeDeploy use-case other features (policy) call. Other features import gates only from here.

import type { GateRuleStore } from "../../ports/gate-rule-store";
import type { RunsService } from "../runs";
import type { DeployNeeds } from "./deploy-targets";
import type { GateRuleCache } from "./gate-rule-cache";

export { proposeDeploy } from "./deploy";
export {
  DEPLOY_TARGET_SPECS,
  DEPLOY_TARGETS,
  type DeployNeeds,
  type DeployTarget,
  deployOpId,
} from "./deploy-targets";
export { createGateRuleCache, type GateRuleCache } from "./gate-rule-cache";
export { gatesRoutes } from "./routes";
export { type ActiveGateRules, DEFAULT_ACTIVE_GATE_RULES, resolveGate } from "./rules";

/** What the gate routes need besides the HTTP basics. */
export type GatesNeeds = DeployNeeds & {
  runs: RunsService;
  gateRules: Pick<GateRuleCache, "get" | "invalidate">;
  gateRuleStore: Pick<GateRuleStore, "addPending" | "activate">;
};
