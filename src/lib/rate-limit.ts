// What a rate limiter answers: the rule, the result, the refusal every adapter builds and the error of one that is down.

/** `limit` requests per `periodSeconds`, sliding. */
export type LimitRule = { limit: number; periodSeconds: number };

/**
 * What one count answered. `reason` is set when the answer did not come from a fresh count (upstash ratelimit-js
 * style): "limit_exceeded" on a refusal. An adapter that cannot reach its store throws `RateLimiterUnavailable`;
 * the caller decides whether that fails open or closed.
 */
export type RateLimitResult =
  | { success: true; limit: number; remaining: number; resetMs: number }
  | {
      success: false;
      reason: "limit_exceeded";
      limit: number;
      remaining: 0;
      resetMs: number;
      retryAfterSeconds: number;
    };

/** Thrown by an adapter whose backing store is down or too slow. */
export class RateLimiterUnavailable extends Error {
  constructor(readonly failure: unknown) {
    super(`rate limiter unavailable: ${String(failure)}`);
  }
}

/** The refusal every adapter builds the same way. */
export function refused(rule: LimitRule, resetMs: number, now: number): RateLimitResult {
  return {
    success: false,
    reason: "limit_exceeded",
    limit: rule.limit,
    remaining: 0,
    resetMs,
    retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
}
