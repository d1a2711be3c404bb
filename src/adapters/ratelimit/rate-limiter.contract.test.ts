// The RateLimiter contract against the in-isolate window and the Workers binding (miniflare); Upstash: upstash.node.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "./memory";
import { rateLimiterContract } from "./rate-limiter.contract";
import { createBindingRateLimiter } from "./workers-binding";

rateLimiterContract("memory", () => createMemoryRateLimiter());
// miniflare honours the per-call limit and period
rateLimiterContract("workers binding (miniflare)", () =>
  createBindingRateLimiter(env.RATE_LIMITER as unknown as Parameters<typeof createBindingRateLimiter>[0]),
);

describe("memory rate limiter", () => {
  it("admits again once the sliding window has moved on", async () => {
    const limiter = createMemoryRateLimiter();
    const rule = { limit: 2, periodSeconds: 60 };
    expect((await limiter.limit("k", rule, 0)).success).toBe(true);
    expect((await limiter.limit("k", rule, 1)).success).toBe(true);
    expect((await limiter.limit("k", rule, 2)).success).toBe(false);
    // half-way through the next window, half of the previous window still weighs: 2 × 0.5 = 1 < 2
    expect((await limiter.limit("k", rule, 90_000)).success).toBe(true);
    expect((await limiter.limit("k", rule, 90_000)).success).toBe(false);
    expect((await limiter.limit("k", rule, 180_000)).success).toBe(true);
  });

  it("reports what is left in the window", async () => {
    const limiter = createMemoryRateLimiter();
    const rule = { limit: 3, periodSeconds: 60 };
    expect(await limiter.limit("k", rule, 0)).toMatchObject({ success: true, remaining: 2, resetMs: 60_000 });
    expect(await limiter.limit("k", rule, 0)).toMatchObject({ remaining: 1 });
  });
});

describe("workers binding rate limiter", () => {
  it("turns a binding failure into RateLimiterUnavailable", async () => {
    const limiter = createBindingRateLimiter({
      limit: () => Promise.reject(new Error("binding down")),
    });
    await expect(limiter.limit("k", { limit: 1, periodSeconds: 60 }, 0)).rejects.toThrow(/unavailable/);
  });

  it("answers a refused key from the isolate until its window ends, without calling the binding", async () => {
    const calls: string[] = [];
    const counts = new Map<string, number>();
    const limiter = createBindingRateLimiter({
      limit: async ({ key, limit }) => {
        calls.push(key);
        const n = (counts.get(key) ?? 0) + 1;
        counts.set(key, n);
        return { success: n <= (limit as number) };
      },
    });
    const rule = { limit: 1, periodSeconds: 60 };
    expect((await limiter.limit("a", rule, 1_000)).success).toBe(true);
    const first = await limiter.limit("a", rule, 2_000);
    expect(first).toMatchObject({ success: false, reason: "limit_exceeded", resetMs: 60_000, retryAfterSeconds: 58 });
    expect(calls).toEqual(["a", "a"]);
    // still refused, same reset, and no call
    expect(await limiter.limit("a", rule, 59_000)).toMatchObject({ success: false, resetMs: 60_000 });
    expect(calls).toHaveLength(2);
    // another key, and the same key under another rule, still ask the binding
    expect((await limiter.limit("b", rule, 59_000)).success).toBe(true);
    await limiter.limit("a", { limit: 5, periodSeconds: 60 }, 59_000);
    expect(calls).toEqual(["a", "a", "b", "a"]);
    // the next window asks again
    counts.clear();
    expect((await limiter.limit("a", rule, 60_000)).success).toBe(true);
    expect(calls).toHaveLength(5);
  });
});

describe("upstash rate limiter inside workerd", () => {
  it("loads in the Workers runtime and turns an unreachable Redis into RateLimiterUnavailable", async () => {
    const { createUpstashRateLimiter } = await import("./upstash");
    const limiter = createUpstashRateLimiter({ url: "http://127.0.0.1:9", token: "t", timeoutMs: 2000 });
    await expect(limiter.limit("k", { limit: 1, periodSeconds: 60 }, Date.now())).rejects.toThrow(/unavailable/);
  });
});
