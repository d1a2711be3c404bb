// RateLimiter over the Workers rate-limiting binding (production: counters local to the Cloudflare machine).

import { RateLimiterUnavailable, refused } from "../../lib/rate-limit";
import type { RateLimiter } from "../../ports/rate-limiter";

/**
 * The binding's limit and period are fixed in wrangler.toml per namespace; the rule is passed along (miniflare
 * honours it) and reported in the headers. In production every bucket key gets the namespace's configured limit,
 * which is why Upstash is the adapter for per-class, per-team limits (docs/storage.md).
 */
export type RateLimitBinding = {
  limit(options: { key: string; limit?: number; period?: number }): Promise<{ success: boolean }>;
};

/**
 * A key the binding refused is refused here, without a call, until its window ends (@upstash/ratelimit's
 * "ephemeral cache"): the binding's windows are fixed (aligned to the clock), so it would refuse the key until then
 * anyway, and a caller flooding a spent bucket costs no binding call per request. At most `maxRefused` keys are kept.
 */
export function createBindingRateLimiter(binding: RateLimitBinding, maxRefused = 10_000): RateLimiter {
  const refusedUntil = new Map<string, number>();
  return {
    async limit(key, rule, now) {
      const periodMs = rule.periodSeconds * 1000;
      const resetMs = now - (now % periodMs) + periodMs;
      const id = `${rule.limit}/${rule.periodSeconds}:${key}`;
      const until = refusedUntil.get(id);
      if (until !== undefined) {
        if (now < until) return refused(rule, until, now);
        refusedUntil.delete(id);
      }
      let success: boolean;
      try {
        ({ success } = await binding.limit({ key, limit: rule.limit, period: rule.periodSeconds }));
      } catch (e) {
        throw new RateLimiterUnavailable(e);
      }
      if (success) return { success, limit: rule.limit, remaining: 0, resetMs };
      if (refusedUntil.size >= maxRefused) refusedUntil.clear();
      refusedUntil.set(id, resetMs);
      return refused(rule, resetMs, now);
    },
  };
}
