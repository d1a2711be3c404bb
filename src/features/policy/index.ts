// The policy feature's public entry: the /v1/policy routes, the decision log consumer step, the policy cache and
// everything of domain.ts (the pure part the run reducer uses). Other features import policy only from here or,
// for the pure part only, from domain.ts.
import type { PolicyMemoryReader } from "../../ports/policy-memory";
import type { RouteLedger } from "../../ports/route-ledger";
import type { RunsService } from "../runs";
import type { DecideDeps } from "./decide";
import type { DecisionLogNeeds } from "./decision-log";

export { decidePolicy } from "./decide";
export {
  appendDecisions,
  createDecisionLogWriter,
  DECISION_LOG_DELAY_MS,
  type DecisionLogNeeds,
  recordDecisionEvents,
} from "./decision-log";
export { HOUR_MS, hourOf } from "./decision-log-layout";
export { countDecisions, readDecisions } from "./decision-log-reader";
export * from "./domain";
export { policyRoutes } from "./routes";
export type { RouteOverrideNeeds } from "./routes/route-overrides";
export { decideDepsOf } from "./run-snapshot";
export { DecideBody } from "./schemas";
export { createTeamPolicyCache } from "./team-policy-cache";

/** What the policy routes need besides the HTTP basics: the decide use-case's needs and the run objects (deploys). */
export type PolicyNeeds = DecideDeps &
  Pick<DecisionLogNeeds, "decisionObjects"> & {
    runs: RunsService;
    policyMemory: PolicyMemoryReader;
    /** session episodes: the routing half of an enforce promotion's trend evidence */
    routeLedger: Pick<RouteLedger, "sessionsWithServes">;
  };
