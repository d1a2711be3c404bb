// HTTP in Node: POST /v1/events, GET /v1/policy-memory, POST /v1/routing/rank — happy paths through the queue stand-in
// and the Worker's consumers, bad inputs.
import { describe, expect, it } from "vitest";
import { DAY, runCompleted } from "../../../test/learning-events";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeTestDeps } from "../../../test/node-d1/consumers";

const NOW = Date.UTC(2026, 10, 22, 12);
const { call, token, env, deps: appDeps, drainQueues } = await nodeHelpers({ queues: true });

describe("POST /v1/events", () => {
  it("queues the event for the caller's team and answers 202", async () => {
    const { call: callApp, published } = await nodeTestDeps(NOW);
    const res = await callApp("POST", "/v1/events", {
      token: await token("team-ev", ["events:write"]),
      body: {
        event_id: "e-1",
        type: "task.failed",
        run_id: "run-1",
        task_id: "task-1",
        reason: "test_failure",
        occurred_at: "2030-01-01T00:00:00Z",
      },
    });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ event_id: "e-1", status: "queued", hints: [] });
    expect(published).toEqual([
      expect.objectContaining({
        event_id: "api:team-ev:e-1",
        client_event_id: "e-1",
        team_id: "team-ev",
        type: "task.failed",
        source: "api",
        // a timestamp ahead of the server's clock is clamped to now
        occurred_at: NOW,
      }),
    ]);
  });

  it("flows through the real queue into policy memory (task events, then run.completed)", async () => {
    const t = await token("team-e2e", ["events:write", "runs:read"]);
    const post = (body: object) => call("POST", "/v1/events", { token: t, body });
    expect(
      (
        await post({
          event_id: "x1",
          type: "task.failed",
          run_id: "r1",
          task_id: "k1",
          skill: "code.test",
          failure_class: "vibe_fail",
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await post({
          event_id: "x2",
          type: "task.completed",
          run_id: "r1",
          task_id: "k1",
          skill: "code.test",
          attempt: 2,
        })
      ).status,
    ).toBe(202);
    // the queue stand-in runs the consumer: run.completed only once both task events are staged, as a YARLI agent would
    // send it
    await drainQueues();
    const staged = await appDeps.learningStore.stagedTasks("team-e2e", "r1");
    expect(staged).toEqual([expect.objectContaining({ failures: 1, succeeded: 1 })]);
    expect((await post({ event_id: "x3", type: "run.completed", run_id: "r1" })).status).toBe(202);
    await drainQueues();
    const snapshot = (await call("GET", "/v1/policy-memory", { token: t })).json;
    expect(snapshot.entries.length).toBeGreaterThan(0);
    expect(snapshot.entries[0]).toMatchObject({ skill_name: "code.test", success_count: 1, failure_count: 0 });
  });

  it("sends a message that keeps failing to the dead-letter queue after max_retries, visible in /v1/metrics", async () => {
    // valid enough to reach the run.completed handler, too broken to apply: no run_id
    await env.EVENTS.send({ event_id: "poison-1", type: "run.completed", team_id: "team-poison", occurred_at: 1 });
    await drainQueues();
    const metrics = (await call("GET", "/v1/metrics", { token: await token("team-poison", ["runs:read"]) })).json;
    expect(metrics.dlq_count).toBeGreaterThan(0);
    expect(metrics.dlq_recent[0]).toMatchObject({ event_id: "poison-1", type: "run.completed" });
    expect(metrics.dlq_recent[0].attempts).toBeGreaterThanOrEqual(1);
  });

  const valid = { event_id: "e", type: "task.failed", run_id: "r", task_id: "k" };
  it.each([
    [{ ...valid, event_id: undefined }, "event_id"],
    [{ ...valid, event_id: "has space" }, "event_id"],
    [{ ...valid, type: "task.exploded" }, "type"],
    [{ ...valid, task_id: undefined }, "task_id"],
    [{ ...valid, reason: "a raw log line: exit 1 at /home/x" }, "reason"],
    [{ ...valid, cost_units: -1 }, "cost_units"],
    [{ ...valid, steps: 1.5 }, "steps"],
    [{ ...valid, tasks: [] }, "tasks"],
    [{ ...valid, type: "run.completed", outcome: "success" }, "skill"],
    [{ ...valid, type: "run.completed", tasks: [{ skill: "s", outcome: "meh" }] }, "tasks.0.outcome"],
    [{ ...valid, team_id: "someone-else" }, ""],
    [{ ...valid, occurred_at: "yesterday" }, "occurred_at"],
  ])("refuses %j with 400 naming %s", async (body, path) => {
    const res = await call("POST", "/v1/events", { token: await token(), body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it("answers bad requests with the envelope, never a 5xx", async () => {
    const t = await token();
    expect((await call("POST", "/v1/events", { body: valid })).status).toBe(401);
    expect(
      (await call("POST", "/v1/events", { token: await token("team-a", ["runs:read"]), body: valid })).status,
    ).toBe(403);
    const bound = await call("POST", "/v1/events", {
      token: await token("team-a", ["events:write"], { runId: "other" }),
      body: valid,
    });
    expect(bound.status).toBe(403);
    expect(bound.json.error.code).toBe("forbidden");
    const form = await call("POST", "/v1/events", { token: t, body: "a=1", headers: { "content-type": "text/plain" } });
    expect(form.status).toBe(415);
    expect((await call("POST", "/v1/events", { token: t, body: "{" })).json.error.code).toBe("invalid_json");
    expect((await call("POST", "/v1/events", { token: t, body: "[]" })).status).toBe(400);
  });
});

describe("GET /v1/policy-memory", () => {
  it("is the cold-start snapshot for a new team", async () => {
    const res = await call("GET", "/v1/policy-memory", { token: await token("team-pm-new", ["runs:read"]) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ version: "1.0.0", team_id: "team-pm-new", entries: [], reset: null });
  });

  it("lists the team's entries sorted by skill with decay applied at the server's clock", async () => {
    const { call: callApp, deliver, setNow } = await nodeTestDeps(NOW);
    await deliver([
      runCompleted(
        "team-pm",
        "r1",
        [
          { skill: "web.search", outcome: "success" },
          { skill: "code.edit", outcome: "failure", failure_class: "vibe_fail" },
        ],
        NOW,
      ),
    ]);
    // the same database, ten days later
    setNow(NOW + 10 * DAY);
    const res = await callApp("GET", "/v1/policy-memory", { token: await token("team-pm", ["policy:decide"]) });
    expect(res.json.entries.map((e: { skill_name: string }) => e.skill_name)).toEqual(["code.edit", "web.search"]);
    expect(res.json.entries[1].decay_factor).toBeCloseTo(0.95 ** 10, 6);
    expect(res.json.routing_weights["web.search"]).toBeCloseTo((4 / 3) * 0.95 ** 10, 5);
    const again = await callApp("GET", "/v1/policy-memory", {
      token: await token("team-pm", ["policy:decide"]),
    });
    expect(again.text).toBe(res.text);
    const other = await callApp("GET", "/v1/policy-memory", { token: await token("team-pm-other", ["runs:read"]) });
    expect(other.json.entries).toEqual([]);
  });

  it("needs a token with a reading scope", async () => {
    expect((await call("GET", "/v1/policy-memory")).status).toBe(401);
    expect((await call("GET", "/v1/policy-memory", { token: await token("t", ["memory:write"]) })).status).toBe(403);
  });
});

describe("POST /v1/routing/rank", () => {
  it("orders skills by effective weight with unknown skills at 1.0", async () => {
    const { call: callApp, deliver } = await nodeTestDeps(NOW);
    await deliver([
      runCompleted(
        "team-rank",
        "r1",
        [
          { skill: "good", outcome: "success" },
          { skill: "bad", outcome: "failure", failure_class: "x" },
        ],
        NOW,
      ),
    ]);
    const res = await callApp("POST", "/v1/routing/rank", {
      token: await token("team-rank", ["runs:read"]),
      body: { skills: ["bad", "new", "good"] },
    });
    expect(res.status).toBe(200);
    expect(res.json.ranked).toEqual([
      { skill: "good", weight: 1.333333, source: "learned", archived: false },
      { skill: "new", weight: 1, source: "cold_start", archived: false },
      { skill: "bad", weight: 0.666667, source: "learned", archived: false },
    ]);
    const ctx = await callApp("POST", "/v1/routing/rank", {
      token: await token("team-rank", ["runs:read"]),
      body: { skills: ["bad", "good"], context: { kind: "incident" } },
    });
    expect(ctx.json.ranked.map((r: { source: string }) => r.source)).toEqual(["cold_start", "cold_start"]);
    expect(ctx.json.ranked.map((r: { skill: string }) => r.skill)).toEqual(["bad", "good"]);
  });

  it.each([
    [{}, "skills"],
    [{ skills: [] }, "skills"],
    [{ skills: "good" }, "skills"],
    [{ skills: [""] }, "skills.0"],
    [{ skills: ["a"], context: 5 }, "context"],
    [{ skills: ["a"], extra: 1 }, ""],
  ])("refuses %j with 400 naming %s", async (body, path) => {
    const res = await call("POST", "/v1/routing/rank", { token: await token(), body });
    expect(res.status).toBe(400);
    expect(res.json.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it("needs a token with a routing scope", async () => {
    expect((await call("POST", "/v1/routing/rank", { body: { skills: ["a"] } })).status).toBe(401);
    const res = await call("POST", "/v1/routing/rank", {
      token: await token("t", ["events:write"]),
      body: { skills: ["a"] },
    });
    expect(res.status).toBe(403);
  });
});

describe("bench hooks", () => {
  it("are not served unless WARDEN_BENCH_HOOKS=1 (only the bench's throw-away server sets it)", async () => {
    const res = await call("POST", "/__bench/consumer", { body: { mode: "batch", batches: 1 } });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
});
