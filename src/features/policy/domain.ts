// The policy feature's pure entry: the MemRL evaluator, the per-team policy cache type, the default profile and the
// canonical digests of the decision log. No routes, so the runs domain can use it without importing the HTTP side.
export { DEFAULT_PROFILE } from "./default-profile";
export {
  type CompiledProfile,
  compileProfile,
  type Decision,
  decide,
  decisionInput,
  lowerMode,
} from "./evaluator";
export { type ReplayReport, replayDecisions } from "./replay";
export type * from "./store/policy-store-port";
export { DEFAULT_COMPILED, type TeamPolicyCache } from "./team-policy-cache";
