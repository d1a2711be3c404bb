// The keys feature's public entry: team API keys (POST/GET/DELETE /v1/keys) and capability tokens from them (POST /v1/tokens).
import { defineFeature } from "../feature";
import { keysRoutes } from "./routes";

export type { KeysNeeds } from "./needs";
export { keysRoutes } from "./routes";

export const keysFeature = defineFeature({ name: "keys", routes: [keysRoutes] });
