// The policy feature's public entry: the /v1/policy routes, the per-team policy cache, the evaluator pieces other
// features use (lowerMode, the default profile) and the decision log. Other features import policy only from here.
import type { RunsService } from "../runs";
import type { DecideDeps } from "./decide";

export { canonicalJson, recordDecisionEvents, sha256Hex } from "./decision-log";
export { DEFAULT_PROFILE } from "./default-profile";
export { lowerMode } from "./evaluator";
export { policyRoutes } from "./routes";
export { createTeamPolicyCache, DEFAULT_COMPILED, type TeamPolicyCache } from "./team-policy-cache";

/** What the policy routes need besides the HTTP basics: the decide use-case's needs and the run objects (deploys). */
export type PolicyNeeds = DecideDeps & { runs: RunsService };
