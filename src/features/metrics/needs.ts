// What the metrics feature needs from the composition root: the metrics read model and the decision log's counts.
import type { DecisionCounts } from "../../ports/decision-log";
import type { GateSlaNeeds } from "../gates";
import type { RouteLedger } from "../memory/domain";
import type { MetricsStore } from "./store/metrics-store-port";

export type MetricsNeeds = {
  metricsStore: MetricsStore;
  routeLedger: Pick<RouteLedger, "sessionsWithServes">;
  /** the decision log's counts since a time (features/policy countDecisions, wired by the composition root) */
  decisionCounts: (teamId: string, since: number) => Promise<DecisionCounts>;
} & GateSlaNeeds;
