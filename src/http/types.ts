// The Hono environment every route shares: a feature's needs as bindings, the request id and the caller as variables.
import type { ApiKeyAuth, ApiKeyIdentity } from "../auth/api-keys";
import type { Principal, TokenVerifier } from "../auth/tokens";
import type { Clock } from "../ports/clock";
import type { RateLimiter } from "../ports/rate-limiter";
import type { TeamLimits } from "./rate-limits";

/** Rate-limit settings: off only for the bench's "limits disabled" row. */
export type HttpLimits = {
  enabled: boolean;
  preauthPerMinute: number;
  team: TeamLimits;
  /**
   * Whether CF-Connecting-IP names the client: only behind Cloudflare, which sets it (absent = true). Elsewhere any
   * caller can send it, so keying a bucket on it would let them spread their requests over invented addresses.
   */
  trustClientIp?: boolean;
  /** the deployment's ceiling on a team's own limits, as a multiple of the defaults (absent = DEFAULT_CEILING_MULTIPLE) */
  ceilingMultiple?: number;
};

/** What every authenticated route needs, whatever its feature: a clock, credentials and the rate limiter. */
export type HttpNeeds = {
  clock: Clock;
  verifyToken: TokenVerifier;
  rateLimiter: RateLimiter;
  limits: HttpLimits;
  apiKeys: ApiKeyAuth;
};

/** A feature's Hono environment: its own small `Needs` interface (plus the HTTP basics) as `c.env.deps`. */
export type FeatureEnv<Needs> = {
  Bindings: { deps: Needs & HttpNeeds };
  Variables: {
    requestId: string;
    principal: Principal;
    /** POST /v1/tokens: the API key presented as bearer */
    apiKey: ApiKeyIdentity;
    /** why authentication failed (set by `authenticate`; requireScope answers 401 with it) */
    authFailure: string;
  };
};
