// The Hono environment every route shares: deps as bindings, the request id and the caller as variables.
import type { Principal } from "../auth/tokens";
import type { Deps } from "../deps";

export type AppEnv = FeatureEnv<Deps>;

/** What every authenticated route needs, whatever its feature: a clock, token verification and the rate limiter. */
export type HttpNeeds = Pick<Deps, "clock" | "verifyToken" | "rateLimiter">;

/** A feature's Hono environment: its own small `Needs` interface (plus the HTTP basics) as `c.env.deps`. */
export type FeatureEnv<Needs> = {
  Bindings: { deps: Needs & HttpNeeds };
  Variables: { requestId: string; principal: Principal };
};
