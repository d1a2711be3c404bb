// The API's route types for `hono/client`: type-only imports of each feature's routes, so nothing worker-side runs in Node.
import type { Hono } from "hono";
import type { hc } from "hono/client";
import type { artifactsRoutes } from "../features/artifacts/routes";
import type { boardRoutes } from "../features/board/routes";
import type { eventsRoutes } from "../features/events/routes";
import type { gateInboxRoutes } from "../features/gates/inbox-routes";
import type { gatesRoutes } from "../features/gates/routes";
import type { healthRoutes } from "../features/health/routes";
import type { keysRoutes } from "../features/keys/routes";
import type { learningRoutes } from "../features/learning/routes";
import type { limitsRoutes } from "../features/limits/routes";
import type { memoryRoutes } from "../features/memory/routes";
import type { metricsRoutes } from "../features/metrics/routes";
import type { viewsApi } from "../features/pages/routes/views-api";
import type { policyRoutes } from "../features/policy/routes";
import type { runsFleetRoutes } from "../features/runs/fleet-routes";
import type { runsRoutes } from "../features/runs/routes";
import type { outageRoutes } from "../features/slack/outage-routes";

type ClientOf<T extends Hono<any, any, any>> = ReturnType<typeof hc<T>>;

/** Every feature is mounted at "/", so one client over all of them is the intersection of their clients. */
export type Api = ClientOf<typeof healthRoutes> &
  ClientOf<typeof policyRoutes> &
  ClientOf<typeof learningRoutes> &
  ClientOf<typeof metricsRoutes> &
  ClientOf<typeof runsRoutes> &
  ClientOf<typeof runsFleetRoutes> &
  ClientOf<typeof gatesRoutes> &
  ClientOf<typeof gateInboxRoutes> &
  ClientOf<typeof memoryRoutes> &
  ClientOf<typeof eventsRoutes> &
  ClientOf<typeof viewsApi> &
  ClientOf<typeof keysRoutes> &
  ClientOf<typeof limitsRoutes> &
  ClientOf<typeof outageRoutes> &
  ClientOf<typeof boardRoutes> &
  ClientOf<typeof artifactsRoutes>;
