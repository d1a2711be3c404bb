// The app composed in Node over the D1 stand-in answers as the Worker does: a D1-only route's data, its refusals in
// the one envelope, a write that lands in D1, and (with the queue stand-in) a request's events consumed when drained.
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/http/rate-limits";
import { nodeWarden } from "./app";

describe("the app in Node over the D1 stand-in", async () => {
  const w = await nodeWarden();
  const admin = await w.token("t-node", ["policy:admin", "runs:read"]);

  it("answers a route backed by D1 (the team's limits, defaults first)", async () => {
    const res = await w.call("GET", "/v1/limits", { token: admin });
    expect(res.status).toBe(200);
    expect(res.json.team_id).toBe("t-node");
    expect(res.json.limits.decide.per_team).toBe(DEFAULT_LIMITS.decide.perTeam);
  });

  it("refuses in the one envelope: no token 401, a bad body 400, a reader 403", async () => {
    const none = await w.call("GET", "/v1/limits");
    expect(none.status).toBe(401);
    expect(Object.keys(none.json.error).sort()).toEqual(["code", "message", "request_id"]);
    const bad = await w.call("PUT", "/v1/limits", { token: admin, body: { limits: "lots" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("validation_failed");
    const reader = await w.call("PUT", "/v1/limits", { token: await w.token("t-node", ["runs:read"]), body: {} });
    expect(reader.status).toBe(403);
  });

  it("stores a lowered limit in D1 at once and reads it back", async () => {
    const put = await w.call("PUT", "/v1/limits", {
      token: admin,
      body: { limits: { decide: { per_team: 100, per_subject: 50 } } },
    });
    expect(put.status).toBe(200);
    const row = await w.db
      .prepare("SELECT COUNT(*) AS n FROM team_limit WHERE team_id = ?")
      .bind("t-node")
      .first<{ n: number }>("n");
    expect(row).toBeGreaterThan(0);
    expect((await w.call("GET", "/v1/limits", { token: admin })).json.limits.decide.per_team).toBe(100);
  });
});

describe("the app in Node with the queue stand-in", () => {
  it("holds a request's events on EVENTS until the test drains them; then its consumers' effects are there", async () => {
    const w = await nodeWarden({ queues: true });
    const t = await w.token("t-node-q", ["events:write", "runs:read", "policy:admin", "memory:read"]);
    const sent = await w.call("POST", "/v1/events", {
      token: t,
      body: {
        event_id: "e-node-q",
        type: "run.completed",
        run_id: "r-node-q",
        skill: "node.skill",
        outcome: "success",
      },
    });
    expect(sent.status).toBe(202);
    const learned = async () => (await w.call("GET", "/v1/policy-memory", { token: t })).json.entries;
    expect(w.queues?.waiting("warden-events")).toMatchObject([{ type: "run.completed" }]);
    expect(await learned()).toEqual([]);
    const deliveries = await w.drain();
    expect(deliveries.map((d) => [d.queue, d.result.explicitAcks.length, d.result.retryMessages.length])).toEqual([
      ["warden-events", 1, 0],
    ]);
    expect(w.queues?.waiting("warden-events")).toEqual([]);
    expect(await learned()).toMatchObject([{ skill_name: "node.skill", success_count: 1, failure_count: 0 }]);
  });
});
