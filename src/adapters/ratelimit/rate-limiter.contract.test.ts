import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { RateLimiter } from "../../ports/rate-limiter";
import { createMemoryRateLimiter } from "./memory";
import { createBindingRateLimiter } from "./workers-binding";

// A small limit on a 10 s window keeps the binding test fast; miniflare honours per-call limit/period.
const LIMIT = 5;
const PERIOD_S = 10;
const adapters: [string, () => RateLimiter][] = [
  ["memory", () => createMemoryRateLimiter(LIMIT, PERIOD_S)],
  [
    "workers binding (miniflare)",
    () =>
      createBindingRateLimiter(
        { limit: ({ key }) => env.RATE_LIMITER.limit({ key, limit: LIMIT, period: PERIOD_S } as { key: string }) },
        PERIOD_S,
      ),
  ],
];

/** miniflare's windows are aligned to the wall clock: start a test early in one so it cannot straddle two. */
async function earlyInWindow() {
  const into = Date.now() % (PERIOD_S * 1000);
  if (into > 6000) await new Promise((r) => setTimeout(r, PERIOD_S * 1000 - into + 50));
}

describe.each(adapters)("RateLimiter contract: %s", (_name, make) => {
  beforeEach(earlyInWindow);

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
