// The RateLimiter contract against @upstash/ratelimit running its own Lua scripts on a real redis-server (via the bridge).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstashLike } from "../../../test/redis/server";
import { RateLimiterUnavailable } from "../../lib/rate-limit";
import { createMemoryRateLimiter } from "./memory";
import { rateLimiterContract } from "./rate-limiter.contract";
import { createUpstashRateLimiter } from "./upstash";

let upstash: Awaited<ReturnType<typeof startUpstashLike>>;
beforeAll(async () => {
  upstash = await startUpstashLike();
});
afterAll(() => upstash?.stop());

const make = () =>
  createUpstashRateLimiter({ url: upstash.url, token: upstash.token, prefix: `t-${crypto.randomUUID()}` });

rateLimiterContract("upstash (real redis-server via the REST bridge)", make);
// the same suite in Node, so a difference between the pools cannot hide a broken contract
rateLimiterContract("memory (node)", () => createMemoryRateLimiter());

describe("upstash rate limiter", () => {
  it("shares counts between instances (isolates) through Redis", async () => {
    const prefix = `shared-${crypto.randomUUID()}`;
    const a = createUpstashRateLimiter({ url: upstash.url, token: upstash.token, prefix });
    const b = createUpstashRateLimiter({ url: upstash.url, token: upstash.token, prefix });
    const rule = { limit: 3, periodSeconds: 60 };
    const got = [];
    for (const l of [a, b, a, b]) got.push((await l.limit("k", rule, Date.now())).success);
    expect(got).toEqual([true, true, true, false]);
  });

  it("throws RateLimiterUnavailable when Redis cannot be reached, never a silent pass", async () => {
    upstash.bridge.setDown(true);
    try {
      await expect(make().limit("k", { limit: 10, periodSeconds: 60 }, Date.now())).rejects.toBeInstanceOf(
        RateLimiterUnavailable,
      );
    } finally {
      upstash.bridge.setDown(false);
    }
  });

  it("treats a count slower than its timeout as an outage", async () => {
    const slow = createUpstashRateLimiter({ url: "http://10.255.255.1:9", token: "x", timeoutMs: 50 });
    await expect(slow.limit("k", { limit: 10, periodSeconds: 60 }, Date.now())).rejects.toBeInstanceOf(
      RateLimiterUnavailable,
    );
  });

  it("refuses a wrong token at the bridge (so the bridge really checks auth)", async () => {
    const bad = createUpstashRateLimiter({ url: upstash.url, token: "wrong" });
    await expect(bad.limit("k", { limit: 10, periodSeconds: 60 }, Date.now())).rejects.toBeInstanceOf(
      RateLimiterUnavailable,
    );
  });
});
