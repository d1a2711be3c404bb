// The metrics feature's public entry: GET /v1/metrics and its needs.

export { MAX_SESSION_ROWS, SESSION_HISTORY_MS } from "./metrics";
export type { MetricsNeeds } from "./needs";
export { opsWardenMetrics } from "./ops-warden";
export { metricsRoutes } from "./routes";
