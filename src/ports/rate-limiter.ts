// Port: a limiter keyed by caller; each call names its rule; a refusal says why and when to come back.

import type { LimitRule, RateLimitResult } from "../lib/rate-limit";

export type { LimitRule, RateLimitResult };

export interface RateLimiter {
  limit(key: string, rule: LimitRule, now: number): Promise<RateLimitResult>;
}
