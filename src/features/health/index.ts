// The health feature's public entry: GET /healthz (liveness and version, no auth).
import { defineFeature } from "../feature";
import { healthRoutes } from "./routes";

export { healthRoutes } from "./routes";

export const healthFeature = defineFeature({ name: "health", routes: [healthRoutes] });
