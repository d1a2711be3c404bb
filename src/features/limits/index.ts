// The limits feature's public entry: the per-team rate-limit admin API (GET/PUT /v1/limits).
import { defineFeature } from "../feature";
import { limitsRoutes } from "./routes";

export type { LimitsNeeds } from "./needs";
export { limitsRoutes } from "./routes";

export const limitsFeature = defineFeature({ name: "limits", routes: [limitsRoutes] });
