// The RateLimiter contract every adapter passes (memory, Workers binding, Upstash), as one parameterised suite.
import { describe, expect, it } from "vitest";
import type { LimitRule, RateLimiter } from "../../ports/rate-limiter";

export const CONTRACT_RULE: LimitRule = { limit: 5, periodSeconds: 10 };

/** Windows aligned to the wall clock (miniflare, Upstash): start a test early in one so it cannot straddle two. */
export async function earlyInWindow(periodSeconds = CONTRACT_RULE.periodSeconds) {
  const into = Date.now() % (periodSeconds * 1000);
  if (into > periodSeconds * 600) await new Promise((r) => setTimeout(r, periodSeconds * 1000 - into + 50));
}

export function rateLimiterContract(name: string, make: () => RateLimiter) {
  const rule = CONTRACT_RULE;
  describe(`RateLimiter contract: ${name}`, () => {
    it("admits up to the limit for a key, then refuses with a reason, the rule and a retry delay", async () => {
      await earlyInWindow();
      const limiter = make();
      const key = `k-${crypto.randomUUID()}`;
      const results = [];
      for (let i = 0; i < rule.limit + 3; i++) results.push(await limiter.limit(key, rule, Date.now()));
      expect(results.filter((r) => r.success)).toHaveLength(rule.limit);
      expect(results.slice(0, rule.limit).every((r) => r.success)).toBe(true);
      const refused = results.at(-1);
      expect(refused).toMatchObject({ success: false, reason: "limit_exceeded", limit: rule.limit, remaining: 0 });
      if (refused && !refused.success) {
        expect(refused.retryAfterSeconds).toBeGreaterThan(0);
        expect(refused.retryAfterSeconds).toBeLessThanOrEqual(rule.periodSeconds);
        expect(refused.resetMs).toBeGreaterThan(Date.now() - 1000);
      }
    });

    it("counts keys separately", async () => {
      await earlyInWindow();
      const limiter = make();
      const a = `a-${crypto.randomUUID()}`;
      for (let i = 0; i < rule.limit; i++) await limiter.limit(a, rule, Date.now());
      expect((await limiter.limit(a, rule, Date.now())).success).toBe(false);
      expect((await limiter.limit(`b-${crypto.randomUUID()}`, rule, Date.now())).success).toBe(true);
    });

    it("applies the limit of the rule it is given", async () => {
      await earlyInWindow();
      const limiter = make();
      const key = `r-${crypto.randomUUID()}`;
      const two: LimitRule = { limit: 2, periodSeconds: rule.periodSeconds };
      const ok = [];
      for (let i = 0; i < 4; i++) ok.push((await limiter.limit(key, two, Date.now())).success);
      expect(ok).toEqual([true, true, false, false]);
    });
  });
}
