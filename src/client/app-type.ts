// The API's route types for `hono/client`: type-only imports of each feature's routes, so nothing worker-side runs in Node.
import type { eventsRoutes } from "../features/events/routes";
import type { gatesRoutes } from "../features/gates/routes";
import type { healthRoutes } from "../features/health/routes";
import type { learningRoutes } from "../features/learning/routes";
import type { memoryRoutes } from "../features/memory/routes";
import type { metricsRoutes } from "../features/metrics/routes";
import type { policyRoutes } from "../features/policy/routes";
import type { runsRoutes } from "../features/runs/routes";

/** Every feature is mounted at "/", so the app's routes are the union of theirs. */
export type FeatureRoutes =
  | typeof healthRoutes
  | typeof policyRoutes
  | typeof learningRoutes
  | typeof metricsRoutes
  | typeof runsRoutes
  | typeof gatesRoutes
  | typeof memoryRoutes
  | typeof eventsRoutes;
