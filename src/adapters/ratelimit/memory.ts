// RateLimiter in isolate memory: a sliding window (two fixed windows, weighted), the embedded local default.

import { refused } from "../../lib/rate-limit";
import type { RateLimiter } from "../../ports/rate-limiter";

/**
 * Exact for one isolate (what `npm start` runs); in production each isolate would count alone, which is why
 * production uses the Workers binding or Upstash. Keys idle for two windows are dropped.
 */
export function createMemoryRateLimiter(maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { start: number; current: number; previous: number }>();
  return {
    async limit(key, rule, now) {
      const periodMs = rule.periodSeconds * 1000;
      const start = now - (now % periodMs);
      const id = `${rule.limit}/${rule.periodSeconds}:${key}`;
      let w = windows.get(id);
      if (!w || start - w.start >= 2 * periodMs) w = { start, current: 0, previous: 0 };
      else if (start !== w.start) w = { start, current: 0, previous: w.current };
      windows.set(id, w);
      const weight = 1 - (now - start) / periodMs;
      const used = w.previous * weight + w.current;
      if (used >= rule.limit) return refused(rule, start + periodMs, now);
      w.current++;
      if (windows.size > maxKeys) windows.clear();
      return {
        success: true,
        limit: rule.limit,
        remaining: Math.max(0, Math.floor(rule.limit - used - 1)),
        resetMs: start + periodMs,
      };
    },
  };
}
