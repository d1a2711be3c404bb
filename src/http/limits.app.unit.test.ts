// The request pipeline's limits and auth order: 401 before any body is read, the per-IP pre-auth bucket, per-class and
// per-subject buckets, the RateLimit headers, and the limiter-outage policy (open for reads/approvals, closed for writes).
import { describe, expect, it } from "vitest";
import { executionContext, nodeHelpers } from "../../test/node-d1/app";
import { createMemoryRateLimiter } from "../adapters/ratelimit/memory";
import { createApp } from "../app";
import type { Deps } from "../deps";
import { RateLimiterUnavailable } from "../lib/rate-limit";
import type { RateLimiter } from "../ports/rate-limiter";
import { type ClassLimits, DEFAULT_LIMITS, limiterOutages, type RouteClass } from "./rate-limits";

const { depsWith, token } = await nodeHelpers();

const decideBody = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };
const approval = { run_id: "run_nope", op_id: "op1", policy_key: "deploy", decision: "approve_retry" };

function withLimits(over: Partial<Record<RouteClass, Partial<ClassLimits[RouteClass]>>>, preauth = 3): Partial<Deps> {
  const limits = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(over)) limits[k as RouteClass] = { ...limits[k as RouteClass], ...v };
  return {
    rateLimiter: createMemoryRateLimiter(),
    limits: {
      enabled: true,
      preauthPerMinute: preauth,
      team: { forTeam: async () => limits, invalidate: () => {}, defaults: limits },
    },
  };
}

function harness(overrides: Partial<Deps> = {}) {
  const deps = depsWith(overrides);
  const app = createApp();
  return async (
    method: string,
    path: string,
    o: { token?: string; body?: string; headers?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined) headers["content-type"] ??= "application/json";
    const { ctx, settle } = executionContext();
    const res = await app.fetch(
      new Request(`https://warden.test${path}`, { method, headers, body: o.body }),
      { deps },
      ctx as never,
    );
    const text = await res.text();
    await settle();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, json };
  };
}

describe("authentication comes before the body (issue 12, finding 9)", () => {
  const send = harness();
  const cases: [string, Record<string, string>, string][] = [
    ["bad JSON", {}, "{not json"],
    ["a non-JSON content type", { "content-type": "text/plain" }, "hello"],
    ["a body over 1 MiB", {}, JSON.stringify({ x: "a".repeat(1024 * 1024 + 10) })],
    ["an empty body", {}, ""],
  ];
  for (const [name, headers, body] of cases) {
    it(`answers 401, not 400/413/415, to a request without a token and ${name}`, async () => {
      const r = await send("POST", "/v1/policy/decide", { headers, body });
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe("unauthorized");
      expect(r.headers.get("www-authenticate")).toContain("Bearer");
    });
  }

  it("answers 401 to a forged token with a bad body, and to PUT/PATCH/DELETE without one", async () => {
    const forged = `${(await token("team-x")).slice(0, -4)}AAAA`;
    expect((await send("POST", "/v1/runs", { token: forged, body: "{" })).status).toBe(401);
    expect((await send("PUT", "/v1/policy/profile", { body: "[" })).status).toBe(401);
    expect((await send("PATCH", "/v1/policy/gates", { body: "[" })).status).toBe(401);
    expect((await send("DELETE", "/v1/keys/key_1")).status).toBe(401);
  });

  it("still answers 400 to an authenticated caller's bad JSON", async () => {
    const r = await send("POST", "/v1/policy/decide", { token: await token("team-x"), body: "{" });
    expect(r.status).toBe(400);
  });
});

describe("client IP trust", () => {
  it("keys no bucket on CF-Connecting-IP when the Worker is not behind Cloudflare: invented addresses gain nothing", async () => {
    const limits = withLimits({}, 3);
    const send = harness({ ...limits, limits: { ...(limits.limits as Deps["limits"]), trustClientIp: false } });
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const headers = { "cf-connecting-ip": `198.51.100.${i}` };
      statuses.push((await send("POST", "/v1/runs", { headers, body: "{" })).status);
    }
    // unauthenticated calls are still refused; none of them spread over a bucket per invented address
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const trusted = harness(withLimits({}, 3));
    const same = { "cf-connecting-ip": "198.51.100.9" };
    const behind = [];
    for (let i = 0; i < 4; i++) behind.push((await trusted("POST", "/v1/runs", { headers: same, body: "{" })).status);
    expect(behind).toEqual([401, 401, 401, 429]);
  });
});

describe("refused bodies", () => {
  it("count against the authenticated caller's bucket: bad JSON, wrong media types and deep bodies meet a 429", async () => {
    const send = harness(withLimits({ runs: { perSubject: 4, perTeam: 100 } }));
    const tok = await token("team-badjson", ["runs:write"], { sub: "flooder" });
    const statuses = [];
    for (const [body, type] of [
      ["{", "application/json"],
      ["{}", "text/plain"],
      [`${"[".repeat(70)}${"]".repeat(70)}`, "application/json"],
      ["nope", "application/json"],
      ["{", "application/json"],
    ] as const) {
      statuses.push((await send("POST", "/v1/runs", { token: tok, body, headers: { "content-type": type } })).status);
    }
    expect(statuses).toEqual([400, 415, 400, 400, 429]);
    // a good body of the same caller is limited too: the refusals spent its bucket
    const good = await send("POST", "/v1/runs", { token: tok, body: JSON.stringify({ goal: "g" }) });
    expect(good.status).toBe(429);
    expect(good.json.error.code).toBe("rate_limited");
  });
});

describe("pre-auth limit per client IP", () => {
  it("limits unauthenticated and failed-auth requests per CF-Connecting-IP, then 429 with Retry-After", async () => {
    const send = harness(withLimits({}, 3));
    const ip = { "cf-connecting-ip": "203.0.113.7" };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send("POST", "/v1/runs", { headers: ip, body: "{" })).status);
    statuses.push((await send("GET", "/v1/runs/r1", { headers: ip, token: "a.b.c" })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await send("POST", "/v1/policy/decide", { headers: ip, body: "{}" });
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-policy")).toBe('"preauth-ip";q=3;w=60');
    // another IP is unaffected, and a valid token from the limited IP is not spent against the IP bucket
    expect((await send("POST", "/v1/runs", { headers: { "cf-connecting-ip": "203.0.113.8" }, body: "{" })).status).toBe(
      401,
    );
    const ok = await send("POST", "/v1/policy/decide", {
      headers: ip,
      token: await token("team-ip"),
      body: JSON.stringify(decideBody),
    });
    expect(ok.status).toBe(200);
  });
});

describe("buckets by route class and subject", () => {
  it("lets a runaway agent spend its own bucket first; its teammates go on", async () => {
    const send = harness(withLimits({ decide: { perSubject: 3, perTeam: 5 } }));
    const runaway = await token("team-fleet", ["policy:decide"], { sub: "agent-runaway" });
    const other = await token("team-fleet", ["policy:decide"], { sub: "agent-2" });
    const body = JSON.stringify(decideBody);
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push((await send("POST", "/v1/policy/decide", { token: runaway, body })).status);
    expect(mine).toEqual([200, 200, 200, 429, 429]);
    // the refused calls spent nothing of the team's: agent-2 still has 2 of the team's 5
    expect((await send("POST", "/v1/policy/decide", { token: other, body })).status).toBe(200);
    expect((await send("POST", "/v1/policy/decide", { token: other, body })).status).toBe(200);
    const teamSpent = await send("POST", "/v1/policy/decide", { token: other, body });
    expect(teamSpent.status).toBe(429);
    expect(teamSpent.headers.get("ratelimit")).toMatch(/^"decide-team";r=0;t=\d+$/);
    // another team is unaffected
    expect((await send("POST", "/v1/policy/decide", { token: await token("team-other"), body })).status).toBe(200);
  });

  it("never starves approvals and stop commands: they have their own bucket", async () => {
    const send = harness(withLimits({ decide: { perSubject: 1, perTeam: 1 }, runs: { perSubject: 1, perTeam: 1 } }));
    const agent = await token("team-appr", ["policy:decide", "runs:write", "runs:read"], { sub: "agent" });
    const human = await token("team-appr", ["approvals:decide", "runs:write"], { sub: "alice" });
    await send("POST", "/v1/policy/decide", { token: agent, body: JSON.stringify(decideBody) });
    await send("POST", "/v1/runs", { token: agent, body: JSON.stringify({ goal: "g" }) });
    expect((await send("POST", "/v1/policy/decide", { token: agent, body: JSON.stringify(decideBody) })).status).toBe(
      429,
    );
    expect((await send("GET", "/v1/runs/run_x", { token: agent })).status).toBe(429);
    const appr = await send("POST", "/v1/approvals", { token: human, body: JSON.stringify(approval) });
    expect(appr.status).not.toBe(429);
    expect(appr.status).toBeLessThan(500);
    expect(appr.headers.get("ratelimit-policy")).toContain('"approvals-subject"');
    const stop = await send("POST", "/v1/runs/run_x/stop", { token: human, body: "{}" });
    expect(stop.status).not.toBe(429);
    expect(stop.status).toBeLessThan(500);
  });

  it("sets RateLimit-Policy and RateLimit (IETF draft) on admitted answers", async () => {
    const send = harness(withLimits({ decide: { perSubject: 10, perTeam: 100 } }));
    const r = await send("POST", "/v1/policy/decide", {
      token: await token("team-h"),
      body: JSON.stringify(decideBody),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-policy")).toBe('"decide-subject";q=10;w=60, "decide-team";q=100;w=60');
    expect(r.headers.get("ratelimit")).toMatch(/^"decide-subject";r=9;t=\d+$/);
  });

  it("spends nothing and sets no headers when limits are off (the bench's baseline)", async () => {
    const send = harness({
      limits: {
        enabled: false,
        preauthPerMinute: 1,
        team: { forTeam: async () => DEFAULT_LIMITS, invalidate: () => {}, defaults: DEFAULT_LIMITS },
      },
    });
    const r = await send("POST", "/v1/policy/decide", {
      token: await token("team-off"),
      body: JSON.stringify(decideBody),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-policy")).toBeNull();
  });
});

describe("limiter outage", () => {
  const down: RateLimiter = {
    limit: async () => {
      throw new RateLimiterUnavailable("redis unreachable");
    },
  };
  it("fails open for reads, decide and approvals; closed for writes; logs and counts each", async () => {
    const send = harness({ ...withLimits({}), rateLimiter: down });
    const t = await token("team-down");
    const before = limiterOutages();
    const warn = console.warn;
    const logged: string[] = [];
    console.warn = (...a: unknown[]) => logged.push(a.map(String).join(" "));
    try {
      expect((await send("GET", "/v1/policy/profile", { token: t })).status).toBe(200);
      expect((await send("POST", "/v1/policy/decide", { token: t, body: JSON.stringify(decideBody) })).status).toBe(
        200,
      );
      const appr = await send("POST", "/v1/approvals", { token: t, body: JSON.stringify(approval) });
      expect(appr.status).not.toBe(429);
      const write = await send("POST", "/v1/runs", { token: t, body: JSON.stringify({ goal: "g" }) });
      expect(write.status).toBe(429);
      expect(write.json.error.message).toContain("rate limiter unavailable");
      expect(Number(write.headers.get("retry-after"))).toBeGreaterThan(0);
      const mem = await send("POST", "/v1/memory", {
        token: t,
        body: JSON.stringify({ namespace: "org", class: "fact", text: "x" }),
      });
      expect(mem.status).toBe(429);
    } finally {
      console.warn = warn;
    }
    const after = limiterOutages();
    expect(after.failed_open - before.failed_open).toBe(3);
    expect(after.failed_closed - before.failed_closed).toBe(2);
    expect(logged.filter((l) => l.includes('"msg":"rate limiter unavailable"'))).toHaveLength(5);
    // counted per team, and answered by GET /v1/metrics for the caller's team only
    expect(limiterOutages("team-down")).toEqual({ failed_open: 3, failed_closed: 2 });
    const metrics = await send("GET", "/v1/metrics", { token: t });
    expect(metrics.status).toBe(200);
    expect(metrics.json.limiter_outages).toEqual({ failed_open: 4, failed_closed: 2 });
    const other = await harness()("GET", "/v1/metrics", { token: await token("team-up") });
    expect(other.json.limiter_outages).toEqual({ failed_open: 0, failed_closed: 0 });
  });
});

describe("per-team limits from D1", () => {
  it("applies a team_limit row to that team only", async () => {
    const deps = depsWith({ rateLimiter: createMemoryRateLimiter() });
    await deps.teamLimitStore.put("team-row", { routeClass: "runs", perTeam: 1, perSubject: 1, periodS: 60 }, 0);
    const send = harness({ rateLimiter: createMemoryRateLimiter() });
    const t = await token("team-row");
    expect((await send("GET", "/v1/runs/run_a", { token: t })).status).not.toBe(429);
    expect((await send("GET", "/v1/runs/run_a", { token: t })).status).toBe(429);
    const u = await token("team-norow");
    expect((await send("GET", "/v1/runs/run_a", { token: u })).status).not.toBe(429);
    expect((await send("GET", "/v1/runs/run_a", { token: u })).status).not.toBe(429);
  });
});
