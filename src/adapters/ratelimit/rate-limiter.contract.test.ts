import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RateLimiter } from "../../ports/rate-limiter";
import { createMemoryRateLimiter } from "./memory";
import { createBindingRateLimiter } from "./workers-binding";

// wrangler.toml's RATE_LIMITER binding allows 600 per 60 s.
const LIMIT = 600;
const adapters: [string, () => RateLimiter][] = [
  ["memory", () => createMemoryRateLimiter(LIMIT, 60)],
  ["workers binding (miniflare)", () => createBindingRateLimiter(env.RATE_LIMITER, 60)],
];

describe.each(adapters)("RateLimiter contract: %s", (_name, make) => {
  it("admits up to the limit for a key, then refuses with a reason and a retry delay", async () => {
    const limiter = make();
    const key = `k-${crypto.randomUUID()}`;
    const now = 1_000_000;
    const results = [];
    for (let i = 0; i < LIMIT + 5; i++) results.push(await limiter.limit(key, now));
    const admitted = results.filter((r) => r.success).length;
    expect(admitted).toBe(LIMIT);
    const refused = results.at(-1);
    expect(refused).toMatchObject({ success: false, reason: "limit_exceeded" });
    expect(refused && !refused.success && refused.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("counts keys separately", async () => {
    const limiter = make();
    const a = `a-${crypto.randomUUID()}`;
    for (let i = 0; i < LIMIT; i++) await limiter.limit(a, 1_000_000);
    expect((await limiter.limit(a, 1_000_000)).success).toBe(false);
    expect((await limiter.limit(`b-${crypto.randomUUID()}`, 1_000_000)).success).toBe(true);
  });
});

describe("memory rate limiter", () => {
  it("admits again once the sliding window has moved on", () => {
    const limiter = createMemoryRateLimiter(2, 60);
    return (async () => {
      expect((await limiter.limit("k", 0)).success).toBe(true);
      expect((await limiter.limit("k", 1)).success).toBe(true);
      expect((await limiter.limit("k", 2)).success).toBe(false);
      // half-way through the next window, half of the previous window still weighs: 2 × 0.5 = 1 < 2
      expect((await limiter.limit("k", 90_000)).success).toBe(true);
      expect((await limiter.limit("k", 90_000)).success).toBe(false);
      expect((await limiter.limit("k", 180_000)).success).toBe(true);
    })();
  });
});
