// What a feature is to the Worker: its route groups, the queues and crons it handles, the services it builds.
import type { Hono } from "hono";

/** Any route group: a feature's `featureApp<Needs>()` (or plain Hono) sub-app, mounted at "/". */
export type RouteGroup = Hono<any, any, any>;

/** A queue consumer: one batch of the named queue, with the composed services. */
export type QueueConsumer = (batch: MessageBatch<unknown>, deps: any) => Promise<void>;

/** A cron handler: the trigger's cron and time, the composed services, `now` and a fresh holder id. */
export type CronHandler = (
  cron: string,
  scheduledTime: number,
  deps: any,
  now: number,
  holder: string,
) => Promise<unknown>;

/**
 * A feature's services are built field by field: each provider gets the services composed so far (infra, then the
 * features before it in the list, then its own earlier fields); the composer uses an override when one is given.
 */
export type Feature = {
  name: string;
  /** route groups, mounted at "/" in this order; every one is in the typed client */
  routes: readonly RouteGroup[];
  /** queue name → consumer */
  queues?: Readonly<Record<string, QueueConsumer>>;
  /** the crons this feature answers (wrangler.toml `triggers.crons`) and its handler */
  crons?: { crons: readonly string[]; run: CronHandler };
  /** the services this feature makes for itself and for others (built once per isolate), field by field */
  build?: Readonly<Record<string, (deps: never) => unknown>>;
};

/** Keeps the feature's literal type (route groups, consumers, services), so the app, the client and `Deps` derive from the list. */
export function defineFeature<const F extends Feature>(feature: F): F {
  return feature;
}
