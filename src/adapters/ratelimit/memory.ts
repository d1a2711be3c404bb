// RateLimiter in isolate memory: a sliding window (two fixed windows, weighted), the embedded local default.
import type { RateLimiter } from "../../ports/rate-limiter";

/**
 * Exact for one isolate (what `npm start` runs); in production each isolate would count alone, which is why
 * production uses the Workers binding or Upstash. Keys idle for two windows are dropped.
 */
export function createMemoryRateLimiter(limit: number, periodSeconds: number): RateLimiter {
  const periodMs = periodSeconds * 1000;
  const windows = new Map<string, { start: number; current: number; previous: number }>();
  return {
    async limit(key, now) {
      const start = now - (now % periodMs);
      let w = windows.get(key);
      if (!w || start - w.start >= 2 * periodMs) w = { start, current: 0, previous: 0 };
      else if (start !== w.start) w = { start, current: 0, previous: w.current };
      windows.set(key, w);
      const weight = 1 - (now - start) / periodMs;
      if (w.previous * weight + w.current >= limit) {
        return {
          success: false,
          reason: "limit_exceeded",
          retryAfterSeconds: Math.max(1, Math.ceil((start + periodMs - now) / 1000)),
        };
      }
      w.current++;
      if (windows.size > 100_000) windows.clear();
      return { success: true };
    },
  };
}
