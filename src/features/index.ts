// The one list of features: the app mounts their routes, the typed client derives its type, the Worker dispatches
// queues and crons, and src/deps.ts composes their services, all from FEATURES. A new feature is one line here.
import type { Hono } from "hono";
import { artifactsFeature } from "./artifacts";
import { boardFeature } from "./board";
import { deadLettersFeature } from "./dead-letters";
import { eventsFeature } from "./events";
import { gatesFeature } from "./gates";
import { healthFeature } from "./health";
import { keysFeature } from "./keys";
import { learningFeature } from "./learning";
import { limitsFeature } from "./limits";
import { mcpFeature } from "./mcp";
import { memoryFeature } from "./memory";
import { memoryMigrationFeature } from "./memory-migration";
import { messagesFeature } from "./messages";
import { metricsFeature } from "./metrics";
import { pagesFeature } from "./pages";
import { policyFeature } from "./policy";
import { runsFeature } from "./runs";
import { slackFeature } from "./slack";
import { sweepsFeature } from "./sweeps";

/** In mount order; services are built in this order too (each feature's build sees the infra and those before it). */
export const FEATURES = [
  healthFeature,
  policyFeature,
  learningFeature,
  metricsFeature,
  runsFeature,
  gatesFeature,
  memoryFeature,
  memoryMigrationFeature,
  eventsFeature,
  messagesFeature,
  slackFeature,
  pagesFeature,
  keysFeature,
  limitsFeature,
  mcpFeature,
  boardFeature,
  artifactsFeature,
  deadLettersFeature,
  sweepsFeature,
] as const;

type AnyFeature = (typeof FEATURES)[number];

/** Every route group of every feature (the typed client is the intersection of their clients). */
export type RouteGroups = AnyFeature["routes"][number];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** A feature's services, read from its providers' return types. */
type ProvidedBy<F> = F extends { build?: infer B }
  ? { [K in keyof NonNullable<B>]: NonNullable<B>[K] extends (deps: never) => infer T ? T : never }
  : never;

/** The services the features build for themselves and each other (src/deps.ts adds them to the infra). */
export type FeatureServices = UnionToIntersection<ProvidedBy<AnyFeature>>;

/** What each route group's handlers read from `c.env.deps`. */
type RouteNeeds<G> =
  G extends Hono<infer E, any, any> ? (E extends { Bindings: { deps: infer N } } ? N : never) : never;
/** What each queue consumer is handed. */
type QueueNeeds<F> = F extends { queues?: infer Q }
  ? {
      [K in keyof NonNullable<Q>]: NonNullable<Q>[K] extends (b: never, deps: infer N) => unknown ? N : never;
    }[keyof NonNullable<Q>]
  : never;
/** What each cron handler is handed. */
type CronNeeds<F> = F extends { crons?: { run: (c: never, t: never, deps: infer N, ...rest: never[]) => unknown } }
  ? N
  : never;

/** What each service provider reads of the services composed before it. */
type ProviderNeeds<F> = F extends { build?: infer B }
  ? {
      [K in keyof NonNullable<B>]: NonNullable<B>[K] extends (deps: infer N) => unknown ? N : never;
    }[keyof NonNullable<B>]
  : never;

/** Everything the features read: `Deps` must satisfy it (checked in src/deps.ts), so no route, consumer or cron lacks a field. */
export type FeatureNeeds = UnionToIntersection<
  RouteNeeds<RouteGroups> | QueueNeeds<AnyFeature> | CronNeeds<AnyFeature> | ProviderNeeds<AnyFeature>
>;
