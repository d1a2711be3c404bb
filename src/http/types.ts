// The Hono environment every route shares: a feature's needs as bindings, the request id and the caller as variables.
import type { Principal, TokenVerifier } from "../auth/tokens";
import type { Clock } from "../ports/clock";
import type { RateLimiter } from "../ports/rate-limiter";

/** What every authenticated route needs, whatever its feature: a clock, token verification and the rate limiter. */
export type HttpNeeds = { clock: Clock; verifyToken: TokenVerifier; rateLimiter: RateLimiter };

/** A feature's Hono environment: its own small `Needs` interface (plus the HTTP basics) as `c.env.deps`. */
export type FeatureEnv<Needs> = {
  Bindings: { deps: Needs & HttpNeeds };
  Variables: { requestId: string; principal: Principal };
};
