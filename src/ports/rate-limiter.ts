// Port: a limiter keyed by caller; a refusal says why and when to come back.
export type RateLimitResult =
  | { success: true }
  | { success: false; reason: "limit_exceeded"; retryAfterSeconds: number };

export interface RateLimiter {
  limit(key: string, now: number): Promise<RateLimitResult>;
}
