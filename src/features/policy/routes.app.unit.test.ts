// HTTP tests of /v1/policy: decide, request handling, tokens, rate limits, the profile, the decision log and replay (in
// Node: the whole app over the D1 stand-in, the team objects' journals flushed into the decision log's bucket stand-in).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runDurableObjectAlarm } from "../../../test/fakes/durable-objects";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeDecisionLog } from "../../../test/node-d1/decision-log";
import { tableRows } from "../../../test/node-d1/table-rows";
import { DEFAULT_PROFILE } from "./default-profile";
import { policyProfiles } from "./store/tables";

// decide appends to the team object's own journal (as in workerd), not the in-memory one nodeWarden gives by default
const h = await nodeHelpers({ deps: (base) => ({ decisionJournal: base.decisionJournal }) });
const { call, env, token } = h;
const { decisionsInLog, flushJournal, journalRows, teamObject } = nodeDecisionLog(h, h.deps.decisionObjects);
const recordRows = tableRows(h);

const decideBody = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };

describe("POST /v1/policy/decide", () => {
  it("returns the decision with its id and the profile version", async () => {
    const res = await call("POST", "/v1/policy/decide", { token: await token("team-d"), body: decideBody });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      requested_mode: "enforce",
      memrl_mode: "enforce",
      failure_class: "vibe_fail",
      attempt_bucket: "middle",
      action: "retry",
      rule_id: "enforce.vibe_fail.middle",
      selected_action: "retry",
      profile: { team_id: "team-d", version: 0 },
    });
    expect(res.json.decision_id).toMatch(/^dec_[0-9a-f]{32}$/);
  });

  it("fails closed over HTTP for an unknown class and for missing metadata", async () => {
    const t = await token("team-d");
    const unknown = await call("POST", "/v1/policy/decide", { token: t, body: { failure_class: "oom", attempt: 1 } });
    expect(unknown.json).toMatchObject({ action: "escalate", rule_id: "default.unknown_failure_class" });
    const missing = await call("POST", "/v1/policy/decide", { token: t, body: {} });
    expect(missing.json).toMatchObject({ action: "escalate", rule_id: "default.missing_metadata" });
  });

  it("applies the team's mode ceiling", async () => {
    await h.deps.policyStore.setModeCeiling("team-ceiling", "observe", "test", Date.now());
    const res = await call("POST", "/v1/policy/decide", {
      token: await token("team-ceiling"),
      body: { ...decideBody, failure_class: "crank_blocked", legacy_action: "retry" },
    });
    expect(res.json).toMatchObject({ requested_mode: "enforce", memrl_mode: "observe", selected_action: "retry" });
  });

  it.each([
    [{ attempt: -1 }, "attempt"],
    [{ attempt: 1.5 }, "attempt"],
    [{ memrl_mode: "sometimes" }, "memrl_mode"],
    [{ attempt_bucket: "late" }, "attempt_bucket"],
    [{ legacy_action: "panic" }, "legacy_action"],
    [{ failure_class: 7 }, "failure_class"],
    [{ surprise: true }, ""],
  ])("refuses %j with validation_failed naming %s", async (body, path) => {
    const res = await call("POST", "/v1/policy/decide", { token: await token(), body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    expect(res.json.error.request_id).toMatch(/^req_/);
  });
});

describe("request handling", () => {
  it("answers malformed JSON with 400 invalid_json", async () => {
    const res = await call("POST", "/v1/policy/decide", { token: await token(), body: '{"attempt": 1,' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_json");
  });

  it("answers a non-JSON content type with 415", async () => {
    const res = await call("POST", "/v1/policy/decide", {
      token: await token(),
      body: "attempt=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe("unsupported_media_type");
  });

  it("answers a body over 1 MiB with 413", async () => {
    const res = await call("POST", "/v1/policy/decide", {
      token: await token(),
      body: JSON.stringify({ pad: "x".repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("payload_too_large");
  });

  it("answers a chunked body over 1 MiB without Content-Length with 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await h.fetch(
      new Request("https://warden.test/v1/policy/decide", {
        method: "POST",
        headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
        body: stream,
        // @ts-expect-error a streamed request body needs duplex (not in the Workers types RequestInit)
        duplex: "half",
      }),
    );
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("payload_too_large");
  });

  it("answers an unknown route with the 404 envelope", async () => {
    const res = await call("GET", "/v1/nope");
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: "not_found" });
    expect(res.json.error.request_id).toMatch(/^req_/);
  });

  it("never leaks a stack trace in an error body", async () => {
    const res = await call("POST", "/v1/policy/decide", { token: await token(), body: "[" });
    expect(res.text).not.toMatch(/at .*\.ts|Error:/);
  });
});

describe("capability tokens", () => {
  const secret = () => new TextEncoder().encode(env.WARDEN_JWT_SECRET);

  async function signed(
    claims: Record<string, unknown>,
    header: Record<string, unknown> = { alg: "HS256" },
    key = secret(),
  ) {
    const { SignJWT } = await import("jose");
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      team_id: "team-a",
      scopes: ["policy:decide"],
      iss: "warden",
      aud: "warden",
      iat: now,
      exp: now + 600,
      ...claims,
    })
      .setProtectedHeader(header as { alg: string })
      .sign(key);
  }

  const decideWith = (t: string) => call("POST", "/v1/policy/decide", { token: t, body: decideBody });

  it("accepts a well-formed token", async () => {
    expect((await decideWith(await signed({}))).status).toBe(200);
  });

  it("refuses a request without a token", async () => {
    const res = await call("POST", "/v1/policy/decide", { body: decideBody });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("unauthorized");
  });

  it.each([
    [
      "a foreign signing key",
      async () => signed({}, { alg: "HS256" }, new TextEncoder().encode("another-secret-of-at-least-32-chars!!")),
    ],
    ["another algorithm", async () => signed({}, { alg: "HS512" })],
    ["the wrong issuer", async () => signed({ iss: "mallory" })],
    ["the wrong audience", async () => signed({ aud: "other" })],
    [
      "an expired exp",
      async () => signed({ iat: Math.floor(Date.now() / 1000) - 900, exp: Math.floor(Date.now() / 1000) - 60 }),
    ],
    ["no exp", async () => signed({ exp: undefined })],
    ["no iat", async () => signed({ iat: undefined })],
    ["a lifetime over 900 s", async () => signed({ exp: Math.floor(Date.now() / 1000) + 901 })],
    ["no team_id", async () => signed({ team_id: undefined })],
    ["an unknown scope", async () => signed({ scopes: ["root"] })],
  ])("refuses a token with %s (401)", async (_what, make) => {
    const res = await decideWith(await make());
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("unauthorized");
  });

  it("refuses an unsigned token (alg none)", async () => {
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const now = Math.floor(Date.now() / 1000);
    const t = `${b64({ alg: "none" })}.${b64({ team_id: "team-a", scopes: ["policy:decide"], iss: "warden", aud: "warden", iat: now, exp: now + 60 })}.x`;
    expect((await decideWith(t)).status).toBe(401);
  });

  it("accepts a token within the 30 s clock tolerance", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await decideWith(await signed({ iat: now - 600, exp: now - 20 }))).status).toBe(200);
  });

  it("refuses a token without the route's scope (403)", async () => {
    const res = await decideWith(await token("team-a", ["memory:read"]));
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
  });

  it("refuses an admin route to a decide-only token", async () => {
    const res = await call("PUT", "/v1/policy/profile", {
      token: await token("team-a", ["policy:decide"]),
      body: DEFAULT_PROFILE,
    });
    expect(res.status).toBe(403);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once the team's limit is spent", async () => {
    // fresh services (an isolate's own caches), as makeDeps(env) in workerd
    const deps = h.depsWith();
    // the team's own limit for decide: a team_limit row (read through the per-isolate cache)
    await deps.teamLimitStore.put("team-limited", { routeClass: "decide", perTeam: 2, perSubject: 2, periodS: 60 }, 0);
    const t = await token("team-limited");
    const send = () => call("POST", "/v1/policy/decide", { token: t, body: decideBody }, deps);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.json.error.code).toBe("rate_limited");
  });
});

describe("PUT /v1/policy/profile", () => {
  it("stores a valid profile as pending and keeps the active one", async () => {
    const t = await token("team-p");
    const res = await call("PUT", "/v1/policy/profile", {
      token: t,
      body: { ...DEFAULT_PROFILE, default_mode: "observe" },
    });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ version: 1, status: "pending" });
    const again = await call("PUT", "/v1/policy/profile", { token: t, body: DEFAULT_PROFILE });
    expect(again.json.version).toBe(2);
    const active = await call("GET", "/v1/policy/profile", { token: t });
    expect(active.headers.get("x-profile-version")).toBe("0");
    expect(active.json.default_mode).toBe("off");
  });

  it("names every failing path of an invalid profile and stores nothing", async () => {
    const t = await token("team-bad");
    const bad = structuredClone(DEFAULT_PROFILE) as any;
    bad.rules[0].failure_class = "disk_full";
    bad.rules[1].attempt_bucket = "late";
    bad.rules[2].rule_id = bad.rules[3].rule_id;
    delete bad.rollback_matrix[0].threshold;
    const res = await call("PUT", "/v1/policy/profile", { token: t, body: bad });
    expect(res.status).toBe(400);
    const paths = res.json.error.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(["rules.0.failure_class", "rules.1.attempt_bucket", "rollback_matrix.0.threshold"]),
    );
    const empty = await call("PUT", "/v1/policy/profile", { token: t, body: { ...DEFAULT_PROFILE, rules: [] } });
    expect(empty.json.error.details.issues.map((i: { path: string }) => i.path)).toContain("rules");
    const dup = structuredClone(DEFAULT_PROFILE) as any;
    dup.rules[5].rule_id = dup.rules[4].rule_id;
    const dupRes = await call("PUT", "/v1/policy/profile", { token: t, body: dup });
    expect(dupRes.json.error.details.issues).toEqual([
      expect.objectContaining({ path: "rules.5.rule_id", message: expect.stringContaining("duplicate rule_id") }),
    ]);
    expect(await recordRows(policyProfiles, eq(policyProfiles.teamId, "team-bad"))).toHaveLength(0);
  });
});

describe("GET /v1/policy/profile", () => {
  it("returns the built-in profile at version 0 for a new team", async () => {
    const res = await call("GET", "/v1/policy/profile", { token: await token("team-new") });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-profile-version")).toBe("0");
    expect(res.json).toEqual(DEFAULT_PROFILE);
  });
});

describe("decision log and replay", () => {
  /** Decides each body over HTTP, then runs the team object's alarm until its journal is in the log. */
  async function logDecisions(teamId: string, bodies: object[]): Promise<string[]> {
    const t = await token(teamId);
    const ids: string[] = [];
    for (const body of bodies) {
      const res = await call("POST", "/v1/policy/decide", { token: t, body });
      expect(res.status).toBe(200);
      ids.push(res.json.decision_id);
    }
    await flushJournal(teamId);
    return ids;
  }

  it("writes each decision once, even when the alarm runs again", async () => {
    const ids = await logDecisions("team-log", [decideBody, decideBody]);
    await flushJournal("team-log");
    // the object's own alarm, if one is armed (its journal is empty: nothing to write again)
    await runDurableObjectAlarm(teamObject("team-log"));
    const results = await decisionsInLog("team-log");
    expect(results.map((d) => d.decision_id).sort()).toEqual([...ids].sort());
    expect(results[0]?.inputs_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(results[0]?.inputs_digest).toBe(results[1]?.inputs_digest);
  });

  it("reports how a candidate profile would change logged decisions, by rule, with examples", async () => {
    await logDecisions("team-replay", [
      decideBody,
      decideBody,
      { ...decideBody, failure_class: "phase_stall" },
      { ...decideBody, attempt: 3 },
    ]);
    const candidate = structuredClone(DEFAULT_PROFILE);
    const r = candidate.rules.find((x) => x.rule_id === "enforce.vibe_fail.middle");
    if (r) r.action = "escalate";
    const res = await call("POST", "/v1/policy/replay", {
      token: await token("team-replay"),
      body: { profile: candidate },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      total: 4,
      changed: 2,
      unchanged: 2,
      by_rule: [{ from_rule_id: "enforce.vibe_fail.middle", to_rule_id: "enforce.vibe_fail.middle", count: 2 }],
    });
    expect(res.json.examples[0]).toMatchObject({ before: { action: "retry" }, after: { action: "escalate" } });
  });

  it("replays only the caller's team", async () => {
    await logDecisions("team-x1", [decideBody]);
    const res = await call("POST", "/v1/policy/replay", {
      token: await token("team-x2"),
      body: { profile: DEFAULT_PROFILE },
    });
    expect(res.json.total).toBe(0);
  });

  it("refuses an invalid candidate with its failing paths", async () => {
    const res = await call("POST", "/v1/policy/replay", {
      token: await token(),
      body: { profile: { ...DEFAULT_PROFILE, default_mode: "maybe" } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details.issues[0].path).toBe("profile.default_mode");
  });
});

describe("the decision log pipeline", () => {
  it("puts each decision in its team's journal before it answers, one row per decision", async () => {
    const t = await token("team-ev");
    const first = await call("POST", "/v1/policy/decide", { token: t, body: decideBody });
    const second = await call("POST", "/v1/policy/decide", { token: t, body: decideBody });
    expect([first.status, second.status]).toEqual([200, 200]);
    const rows = await journalRows("team-ev");
    expect(rows.map((d) => d.decision_id)).toEqual([first.json.decision_id, second.json.decision_id]);
    expect(rows[0]).toMatchObject({ team_id: "team-ev", rule_id: first.json.rule_id, inputs: decideBody });
  });

  it("answers 503 unavailable and acknowledges nothing when the journal refuses", async () => {
    const deps = h.depsWith({
      decisionJournal: {
        append: async () => {
          throw new Error("team object unavailable");
        },
      },
    });
    const { decidePolicy } = await import("./decide");
    const principal = { teamId: "team-down", scopes: new Set(), subject: "u", expiresAtMs: Date.now() + 60_000 } as any;
    const result = await decidePolicy(deps, principal, decideBody as any, 1000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("unavailable");
    expect(await journalRows("team-down")).toEqual([]);
  });
});
