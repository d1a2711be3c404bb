// GET/PUT /v1/limits over the worker: defaults and overrides, the write applied at once in this isolate (cache
// invalidated), audited, admin-only, increases above the defaults held behind a hard gate another person approves,
// and bad input (unknown class, negative, huge, per_subject > per_team, over the ceiling) refused.
import { describe, expect, it } from "vitest";
import { executionContext, nodeHelpers } from "../../../test/node-d1/app";
import { createMemoryRateLimiter } from "../../adapters/ratelimit/memory";
import { createApp } from "../../app";
import { DEFAULT_LIMITS, MAX_LIMIT, ROUTE_CLASSES } from "../../http/rate-limits";

const { call, deps, depsWith, teamTokens, token } = await nodeHelpers();

describe("GET /v1/limits", () => {
  it("answers every route class with the defaults for a team without overrides", async () => {
    const r = await call("GET", "/v1/limits", { token: await token("team-l0") });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.limits).sort()).toEqual([...ROUTE_CLASSES].sort());
    expect(r.json.limits.decide).toEqual({
      per_team: DEFAULT_LIMITS.decide.perTeam,
      per_subject: DEFAULT_LIMITS.decide.perSubject,
      period_s: 60,
      source: "default",
    });
  });

  it("is for policy:admin only", async () => {
    expect((await call("GET", "/v1/limits", { token: await token("team-l0", ["runs:read"]) })).status).toBe(403);
    expect((await call("PUT", "/v1/limits", { token: await token("team-l0", ["runs:read"]), body: {} })).status).toBe(
      403,
    );
  });
});

describe("PUT /v1/limits", () => {
  it("stores overrides for the named classes only, audited; another team is untouched", async () => {
    const t = await token("team-l1");
    const r = await call("PUT", "/v1/limits", {
      token: t,
      body: {
        limits: {
          decide: { per_team: 5900, per_subject: 100 },
          memory_write: { per_team: 50, per_subject: 50, period_s: 10 },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.limits.decide).toEqual({ per_team: 5900, per_subject: 100, period_s: 60, source: "team" });
    expect(r.json.limits.memory_write).toEqual({ per_team: 50, per_subject: 50, period_s: 10, source: "team" });
    expect(r.json.limits.runs.source).toBe("default");
    expect((await call("GET", "/v1/limits", { token: t })).json).toEqual(r.json);
    const other = await call("GET", "/v1/limits", { token: await token("team-l1-other") });
    expect(other.json.limits.decide.source).toBe("default");
    const audit = await call("GET", "/v1/audit", { token: t });
    const entry = audit.json.entries.find((e: { type: string }) => e.type === "team_limits.updated");
    expect(entry).toMatchObject({ subject_id: "team-l1", actor: "user-team-l1" });
    expect(JSON.stringify(entry)).toContain("5900");
  });

  it("refuses limits above the deployment's ceiling (10× the default rate) with 422 and changes nothing", async () => {
    const t = await token("team-l-ceiling");
    for (const decide of [
      { per_team: 1_000_000, per_subject: 100 },
      { per_team: 1001, per_subject: 100, period_s: 1 },
      { per_team: 20_000, per_subject: 12_001 },
    ]) {
      const r = await call("PUT", "/v1/limits", { token: t, body: { limits: { decide } } });
      expect(r.status, JSON.stringify(decide)).toBe(422);
      expect(r.json.error.code).toBe("rejected");
      expect(r.json.error.details).toEqual({ rule_ids: ["limits.ceiling"] });
      expect(r.json.error.message).toContain("limits.decide.");
    }
    expect((await call("GET", "/v1/limits", { token: t })).json.limits.decide.source).toBe("default");
  });

  it("holds an increase above the defaults behind a policy_deploy hard gate until another person approves it", async () => {
    const team = "team-l-raise";
    const t = await teamTokens(team);
    const put = (body: unknown) => call("PUT", "/v1/limits", { token: t.admin, body });
    // a lower limit in one class and, up to the ceiling, a higher one in another: the whole change waits
    const r = await put({
      limits: { decide: { per_team: 60_000, per_subject: 12_000 }, runs: { per_team: 100, per_subject: 50 } },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.json).toMatchObject({
      status: "pending",
      version: 1,
      op_id: expect.stringMatching(/^deploy-limits-v1-/),
      above_default: ["limits.decide.per_team", "limits.decide.per_subject"],
    });
    const current = async () => (await call("GET", "/v1/limits", { token: t.admin })).json.limits;
    expect((await current()).decide.source).toBe("default");
    expect((await current()).runs.source).toBe("default");
    const gate = await call("GET", `/v1/runs/${r.json.run_id}/gates/${r.json.gate_id}`, { token: t.admin });
    expect(gate.json).toMatchObject({ kind: "hard", status: "pending" });
    const decide = (tok: string) =>
      call("POST", "/v1/approvals", {
        token: tok,
        body: {
          run_id: r.json.run_id,
          op_id: r.json.op_id,
          policy_key: "policy_deploy",
          decision: "approve_retry",
          note: "load test next week",
        },
      });
    expect((await decide(t.admin)).status).toBe(403); // nobody approves their own increase
    expect((await current()).decide.source).toBe("default");
    expect((await decide(t.approver)).status).toBe(200);
    const after = await current();
    expect(after.decide).toEqual({ per_team: 60_000, per_subject: 12_000, period_s: 60, source: "team" });
    expect(after.runs).toEqual({ per_team: 100, per_subject: 50, period_s: 60, source: "team" });
    const audit = await call("GET", "/v1/audit?type=team_limits.updated", { token: t.admin });
    expect(audit.json.entries).toHaveLength(1);
    expect(audit.json.entries[0]).toMatchObject({ actor: "policy_deploy", subject_id: `${team}/v1` });
    // a second activation of the applied request writes nothing: no row changed, no second audit entry
    const again = await deps.teamLimitStore.applyRequest(team, 1, Date.now(), {
      id: `audit-again-${team}`,
      teamId: team,
      actor: "policy_deploy",
      action: "team_limits.updated",
      subjectType: "team_limits",
      subjectId: `${team}/v1`,
      metadata: null,
      createdAt: Date.now(),
    });
    expect(again).toBe(false);
    expect(await current()).toEqual(after);
    expect((await call("GET", "/v1/audit?type=team_limits.updated", { token: t.admin })).json.entries).toHaveLength(1);
    // lowering again needs nobody: at or under the defaults applies at once
    const lower = await put({ limits: { decide: { per_team: 6000, per_subject: 1200 } } });
    expect(lower.status).toBe(200);
    expect(lower.json.limits.decide).toMatchObject({ per_team: 6000, source: "team" });
  });

  it("refuses bad input with 400 and changes nothing", async () => {
    const t = await token("team-l2");
    const bad: unknown[] = [
      {},
      { limits: {} },
      { limits: { nope: { per_team: 1, per_subject: 1 } } },
      { limits: { decide: { per_team: -1, per_subject: 1 } } },
      { limits: { decide: { per_team: 0, per_subject: 0 } } },
      { limits: { decide: { per_team: MAX_LIMIT + 1, per_subject: 1 } } },
      { limits: { decide: { per_team: 1e308, per_subject: 1 } } },
      { limits: { decide: { per_team: 10, per_subject: 1.5 } } },
      { limits: { decide: { per_team: 10, per_subject: 11 } } },
      { limits: { decide: { per_team: 10, per_subject: 5, period_s: 0 } } },
      { limits: { decide: { per_team: 10, per_subject: 5, period_s: 86_400 } } },
      { limits: { decide: { per_team: "10", per_subject: 5 } } },
      { limits: { decide: { per_team: 10, per_subject: 5, extra: 1 } } },
      { limits: { decide: { per_team: 10, per_subject: 5 }, slack: { per_team: -5, per_subject: 1 } } },
      { limits: { __proto__: { per_team: 1, per_subject: 1 } } },
      { limits: [] },
      [],
    ];
    for (const body of bad) {
      const r = await call("PUT", "/v1/limits", { token: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe("validation_failed");
    }
    const after = await call("GET", "/v1/limits", { token: t });
    expect(Object.values(after.json.limits).every((l) => (l as { source: string }).source === "default")).toBe(true);
  });

  it("a run-bound admin token cannot change team limits", async () => {
    const t = await token("team-l3", ["policy:admin"], { runId: "run_1" });
    const r = await call("PUT", "/v1/limits", {
      token: t,
      body: { limits: { decide: { per_team: 5, per_subject: 5 } } },
    });
    expect(r.status).toBe(403);
  });

  it("applies at once in the isolate that wrote (its 60 s cache is dropped): the next request spends the new limit", async () => {
    // an isolate with limits on (the test default is off) and its own cache
    const deps = depsWith({ rateLimiter: createMemoryRateLimiter() });
    deps.limits.enabled = true;
    const app = createApp();
    const send = async (method: string, path: string, t: string, body?: unknown) => {
      const { ctx, settle } = executionContext();
      const res = await app.fetch(
        new Request(`https://warden.test${path}`, {
          method,
          headers: { authorization: `Bearer ${t}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { deps },
        ctx as never,
      );
      await settle();
      return { status: res.status, policy: res.headers.get("ratelimit-policy") };
    };
    const t = await token("team-l4");
    // warm the cache with the defaults
    expect((await send("GET", "/v1/policy/profile", t)).policy).toContain(`q=${DEFAULT_LIMITS.other.perSubject}`);
    const put = await send("PUT", "/v1/limits", t, { limits: { other: { per_team: 6, per_subject: 5 } } });
    expect(put.status).toBe(200);
    const next = await send("GET", "/v1/policy/profile", t);
    expect(next.status).toBe(200);
    expect(next.policy).toBe('"other-subject";q=5;w=60, "other-team";q=6;w=60');
  });
});
