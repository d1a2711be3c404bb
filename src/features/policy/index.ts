import { defineFeature } from "../feature";
import type { PolicyMemoryReader } from "../learning/domain";
import type { RouteLedger } from "../memory/domain";
import type { RunsService } from "../runs";
import { classesRoutes } from "./classes-routes";
import type { DecideDeps } from "./decide";
import type { DecisionLogNeeds } from "./decision-log";
import { countDecisions } from "./decision-log-reader";
import { type PromotionEvidenceNeeds, trendGate } from "./promotion-evidence";
import { policyRoutes } from "./routes";
import { routeOverrideRoutes } from "./routes/route-overrides";
import type { PolicyStore } from "./store/policy-store-port";
import { createTeamPolicyCache } from "./team-policy-cache";

export { decidePolicy } from "./decide";
export { decisionEscalationAudits } from "./decision-audit";
export { appendDecisions, type DecisionLogNeeds } from "./decision-log";
export { HOUR_MS, hourOf } from "./decision-log-layout";
export { countDecisions, readDecisions } from "./decision-log-reader";
export * from "./domain";
export {
  JOURNAL_DONE_TTL_MS,
  JOURNAL_FLUSH_DELAY_MS,
  JOURNAL_FLUSH_LIMIT,
  journalRetryDelay,
  sharesOfAdded,
} from "./journal-batch";
export { flushJournal, type JournalFlushNeeds } from "./journal-flush";
export { policyRoutes } from "./routes";
export type { RouteOverrideNeeds } from "./routes/route-overrides";
export { decideDepsOf } from "./run-snapshot";
export { DecideBody } from "./schemas";
export { lowerCeilingStatement } from "./store/policy-store";
export { createTeamPolicyCache } from "./team-policy-cache";

/** What the policy routes need besides the HTTP basics: the decide use-case's needs and the run objects (deploys). */
export type PolicyNeeds = DecideDeps &
  Pick<DecisionLogNeeds, "decisionObjects"> & {
    runs: RunsService;
    policyMemory: PolicyMemoryReader;
    /** session episodes: the routing half of an enforce promotion's trend evidence */
    routeLedger: Pick<RouteLedger, "sessionsWithServes">;
  };

/** Policy: decisions, profiles, classes and route overrides; the team policy cache. */
export const policyFeature = defineFeature({
  name: "policy",
  routes: [policyRoutes, routeOverrideRoutes, classesRoutes],
  build: {
    policies: (d: { policyStore: PolicyStore }) => createTeamPolicyCache(d.policyStore),
    /**
     * evaluation_trend_regression_gate for the routing changes of features policy may not be imported by (gate rules:
     * the gates feature's routes; policy already imports gates), handed over here instead of imported
     */
    trendGate: (d: PromotionEvidenceNeeds) => (teamId: string, now: number) => trendGate(d, teamId, now),
    /** the decision log's counts since a time (GET /v1/metrics): whole hours from the counters, the first hour exact */
    decisionCounts:
      (d: Pick<DecisionLogNeeds, "decisionObjects" | "decisionCounters"> & { policyStore: PolicyStore }) =>
      (teamId: string, since: number) =>
        countDecisions(d, teamId, since),
  },
});
