// Port: a fixed-window or sliding-window limiter keyed by caller; the result says why it refused.
export type RateLimitResult =
  | { success: true }
  | { success: false; reason: "limit_exceeded"; retryAfterSeconds: number };

export interface RateLimiter {
  limit(key: string): Promise<RateLimitResult>;
}
