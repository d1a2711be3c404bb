// The policy feature's public entry: the /v1/policy routes, the decision log consumer step, the policy cache and
// everything of domain.ts (the pure part the run reducer uses). Other features import policy only from here or,
// for the pure part only, from domain.ts.
import { createBufferedEventBus } from "../../adapters/queue/buffered-event-bus";
import type { AuditLogStore } from "../../ports/audit-log";
import type { EventBus } from "../../ports/event-bus";
import type { PolicyMemoryReader } from "../../ports/policy-memory";
import type { PolicyStore } from "../../ports/policy-store";
import type { RouteLedger } from "../../ports/route-ledger";
import { defineFeature } from "../feature";
import type { RunsService } from "../runs";
import { classesRoutes } from "./classes-routes";
import type { DecideDeps } from "./decide";
import { withDecisionEscalationAudit } from "./decision-audit";
import { createDecisionLogWriter, DECISION_LOG_DELAY_MS } from "./decision-log";
import { policyRoutes } from "./routes";
import { routeOverrideRoutes } from "./routes/route-overrides";
import { createTeamPolicyCache } from "./team-policy-cache";

export { decidePolicy } from "./decide";
export { decisionEscalationAudits, withDecisionEscalationAudit } from "./decision-audit";
export { createDecisionLogWriter, DECISION_LOG_DELAY_MS, recordDecisionEvents } from "./decision-log";
export * from "./domain";
export { policyRoutes } from "./routes";
export type { RouteOverrideNeeds } from "./routes/route-overrides";
export { decideDepsOf } from "./run-snapshot";
export { DecideBody } from "./schemas";
export { createTeamPolicyCache } from "./team-policy-cache";

/** What the policy routes need besides the HTTP basics: the decide use-case's needs and the run objects (deploys). */
export type PolicyNeeds = DecideDeps & {
  runs: RunsService;
  policyMemory: PolicyMemoryReader;
  /** session episodes: the routing half of an enforce promotion's trend evidence */
  routeLedger: Pick<RouteLedger, "sessionsWithServes">;
};

/** Policy: decisions, profiles, classes and route overrides; the team policy cache and the decision log's buffer. */
export const policyFeature = defineFeature({
  name: "policy",
  routes: [policyRoutes, routeOverrideRoutes, classesRoutes],
  build: {
    policies: (d: { policyStore: PolicyStore }) => createTeamPolicyCache(d.policyStore),
    /** coalesces high-rate events (the decision log) into one D1 batch per group (EVENTS when D1 refuses it) */
    decisionEvents: (d: { policyStore: PolicyStore; events: EventBus; auditLog: AuditLogStore }) =>
      createBufferedEventBus(
        withDecisionEscalationAudit(createDecisionLogWriter(d.policyStore, d.events), d.auditLog),
        100,
        DECISION_LOG_DELAY_MS,
      ),
  },
});
