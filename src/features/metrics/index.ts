// The metrics feature's public entry: GET /v1/metrics and its needs.
import { defineFeature } from "../feature";
import { metricsRoutes } from "./routes";

export { MAX_SESSION_ROWS, SESSION_HISTORY_MS } from "./metrics";
export type { MetricsNeeds } from "./needs";
export { opsWardenMetrics } from "./ops-warden";
export { metricsRoutes } from "./routes";
export { approvalCountsQuery, humanLatenciesQuery } from "./store/approval-queries";

export const metricsFeature = defineFeature({ name: "metrics", routes: [metricsRoutes] });
