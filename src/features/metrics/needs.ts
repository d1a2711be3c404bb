// What the metrics feature needs from the composition root: the metrics read model.
import type { MetricsStore } from "../../ports/metrics-store";

export type MetricsNeeds = { metricsStore: MetricsStore };
