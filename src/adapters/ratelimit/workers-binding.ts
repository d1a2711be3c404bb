// RateLimiter over the Workers rate-limiting binding (production: counters local to the Cloudflare machine).
import type { RateLimiter } from "../../ports/rate-limiter";

export type RateLimitBinding = { limit(options: { key: string }): Promise<{ success: boolean }> };

export function createBindingRateLimiter(binding: RateLimitBinding, periodSeconds: number): RateLimiter {
  return {
    async limit(key) {
      const { success } = await binding.limit({ key });
      return success ? { success } : { success, reason: "limit_exceeded", retryAfterSeconds: periodSeconds };
    },
  };
}
