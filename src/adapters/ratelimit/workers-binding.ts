// RateLimiter over the Workers rate-limiting binding (production: counters local to the Cloudflare machine).
import { type RateLimiter, RateLimiterUnavailable, refused } from "../../ports/rate-limiter";

/**
 * The binding's limit and period are fixed in wrangler.toml per namespace; the rule is passed along (miniflare
 * honours it) and reported in the headers. In production every bucket key gets the namespace's configured limit,
 * which is why Upstash is the adapter for per-class, per-team limits (docs/storage.md).
 */
export type RateLimitBinding = {
  limit(options: { key: string; limit?: number; period?: number }): Promise<{ success: boolean }>;
};

export function createBindingRateLimiter(binding: RateLimitBinding): RateLimiter {
  return {
    async limit(key, rule, now) {
      let success: boolean;
      try {
        ({ success } = await binding.limit({ key, limit: rule.limit, period: rule.periodSeconds }));
      } catch (e) {
        throw new RateLimiterUnavailable(e);
      }
      const periodMs = rule.periodSeconds * 1000;
      const resetMs = now - (now % periodMs) + periodMs;
      return success ? { success, limit: rule.limit, remaining: 0, resetMs } : refused(rule, resetMs, now);
    },
  };
}
