// What the metrics feature needs from the composition root: the metrics read model.
import type { MetricsStore } from "../../ports/metrics-store";
import type { RouteLedger } from "../../ports/route-ledger";
import type { GateSlaNeeds } from "../gates";

export type MetricsNeeds = {
  metricsStore: MetricsStore;
  routeLedger: Pick<RouteLedger, "sessionsWithServes">;
} & GateSlaNeeds;
