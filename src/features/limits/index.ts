// The limits feature's public entry: the per-team rate-limit admin API (GET/PUT /v1/limits).
export type { LimitsNeeds } from "./needs";
export { limitsRoutes } from "./routes";
