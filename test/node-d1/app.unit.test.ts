// The app composed in Node over the D1 stand-in answers as the Worker does: a D1-only route's data, its refusals in
// the one envelope, and a write that lands in D1.
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
