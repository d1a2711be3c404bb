// POST /v1/events in Node answers task.failed / task.blocked with memory hints: real memory, a slow, a failing and a
// spying provider.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeTestDeps } from "../../../test/node-d1/consumers";
import type { HintsProvider, MemoryHint } from "../memory/hints-port";

const NOW = Date.UTC(2026, 10, 22, 12);
const { call, token } = await nodeHelpers();

/** testDeps(now, overrides) in Node: the app over these deps (`callApp`) and what it published */
async function testApp(overrides: Parameters<typeof nodeTestDeps>[1]) {
  const w = await nodeTestDeps(NOW, overrides);
  return { published: w.published, callApp: w.call };
}
const HINT: MemoryHint = { id: "mem_1", namespace: "team/t/org", class: "semantic", text: "lesson", score: 0.9 };

function spyHints(answer: (call: unknown) => Promise<MemoryHint[]>) {
  const calls: unknown[] = [];
  const hints: HintsProvider = {
    forRunStart: async () => [],
    forTaskFailure: (teamId, q) => {
      calls.push({ teamId, ...q });
      return answer(q);
    },
  };
  return { hints, calls };
}

const failed = (extra: Record<string, unknown> = {}) => ({
  event_id: `e-${crypto.randomUUID().slice(0, 8)}`,
  type: "task.failed",
  run_id: "run-h",
  task_id: "task-h",
  task_key: "invoice-extract",
  project_id: "billing",
  reason: "schema_invalid",
  ...extra,
});

describe("POST /v1/events hints", () => {
  it("answers a task.failed with the hints memory found for its reason bucket, task key, run and project", async () => {
    const spy = spyHints(async () => [HINT]);
    const { callApp, published } = await testApp({ hints: spy.hints });
    const res = await callApp("POST", "/v1/events", {
      token: await token("team-eh", ["events:write"]),
      body: failed(),
    });
    expect(res.status).toBe(202);
    expect(res.json.hints).toEqual([HINT]);
    expect(published).toHaveLength(1);
    expect(spy.calls).toEqual([
      {
        teamId: "team-eh",
        reasonBucket: "schema_invalid",
        taskKey: "invoice-extract",
        runId: "run-h",
        projectId: "billing",
      },
    ]);
  });

  it("answers a task.blocked with hints too, using the failure class when no reason is given", async () => {
    const spy = spyHints(async () => [HINT]);
    const { callApp } = await testApp({ hints: spy.hints });
    const res = await callApp("POST", "/v1/events", {
      token: await token("team-eh", ["events:write"]),
      body: failed({ type: "task.blocked", reason: undefined, failure_class: "crank_blocked" }),
    });
    expect(res.status).toBe(202);
    expect(res.json.hints).toEqual([HINT]);
    expect(spy.calls).toEqual([expect.objectContaining({ reasonBucket: "crank_blocked" })]);
  });

  it("asks for no hints for task.completed and run.completed", async () => {
    const spy = spyHints(async () => [HINT]);
    const { callApp, published } = await testApp({ hints: spy.hints });
    const t = await token("team-eh", ["events:write"]);
    const done = await callApp("POST", "/v1/events", { token: t, body: failed({ type: "task.completed" }) });
    const run = await callApp("POST", "/v1/events", {
      token: t,
      body: { event_id: "rc-1", type: "run.completed", run_id: "run-h", skill: "s", outcome: "success" },
    });
    expect([done.status, run.status]).toEqual([202, 202]);
    expect(done.json).toEqual({ event_id: expect.any(String), status: "queued" });
    expect(run.json).toEqual({ event_id: "rc-1", status: "queued" });
    expect(spy.calls).toEqual([]);
    expect(published).toHaveLength(2);
  });

  it.each([
    ["never answers (the wait is bounded)", () => new Promise<MemoryHint[]>(() => {})],
    ["throws", () => Promise.reject(new Error("memory down"))],
  ])("queues the event and answers without hints when memory %s", async (_, answer) => {
    const spy = spyHints(answer);
    const { callApp, published } = await testApp({ hints: spy.hints });
    const res = await callApp("POST", "/v1/events", {
      token: await token("team-eh", ["events:write"]),
      body: failed(),
    });
    expect(res.status).toBe(202);
    expect(res.json.hints).toEqual([]);
    expect(published).toHaveLength(1);
  });

  it("finds a lesson stored in the project's memory through the real server", async () => {
    const team = `eh-${crypto.randomUUID().slice(0, 8)}`;
    const t = await token(team, ["events:write", "memory:write", "memory:read"]);
    const lesson = "schema_invalid on invoice-extract: totals use a comma decimal separator; normalise before parsing";
    const w = await call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/project/billing/lessons`, class: "semantic", text: lesson },
    });
    expect(w.status).toBe(201);
    const res = await call("POST", "/v1/events", { token: t, body: failed() });
    expect(res.status).toBe(202);
    expect(res.json.hints.map((h: MemoryHint) => h.id)).toContain(w.json.id);
  });
});
