// RateLimiter over @upstash/ratelimit (sliding window in Redis over Upstash's REST API): shared counters for production.
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis/cloudflare";
import { RateLimiterUnavailable, refused } from "../../lib/rate-limit";
import type { LimitRule, RateLimiter } from "../../ports/rate-limiter";

export type UpstashOptions = {
  url: string;
  token: string;
  /** Redis key prefix (tests give each run its own) */
  prefix?: string;
  /** ms before a count gives up; a timeout is an outage (the caller fails open or closed), never a silent pass */
  timeoutMs?: number;
  /** off by default: an ephemeral cache answers refusals from isolate memory, analytics write extra keys */
  ephemeralCache?: boolean;
  analytics?: boolean;
};

/** One Ratelimit per rule (the library fixes limit and window per instance); all share one Redis client. */
export function createUpstashRateLimiter(o: UpstashOptions): RateLimiter {
  const redis = new Redis({ url: o.url, token: o.token, retry: false, enableTelemetry: false });
  const limiters = new Map<string, Ratelimit>();
  const forRule = (rule: LimitRule) => {
    const id = `${rule.limit}/${rule.periodSeconds}`;
    let rl = limiters.get(id);
    if (!rl) {
      rl = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(rule.limit, `${rule.periodSeconds} s`),
        prefix: `${o.prefix ?? "warden:rl"}:${id}`,
        ephemeralCache: o.ephemeralCache ? new Map() : false,
        analytics: o.analytics ?? false,
        timeout: o.timeoutMs ?? 1000,
      });
      limiters.set(id, rl);
    }
    return rl;
  };
  return {
    async limit(key, rule, now) {
      let r: Awaited<ReturnType<Ratelimit["limit"]>>;
      try {
        r = await forRule(rule).limit(key);
      } catch (e) {
        throw new RateLimiterUnavailable(e);
      }
      if (r.reason === "timeout") throw new RateLimiterUnavailable("timeout");
      if (!r.success) return refused(rule, r.reset, now);
      return { success: true, limit: r.limit, remaining: r.remaining, resetMs: r.reset };
    },
  };
}
