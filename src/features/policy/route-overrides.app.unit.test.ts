// POST /v1/routes/overrides, through the whole app in Node (nodeHelpers): retire and clear are audited and take effect at once; a pin waits for its hard gate.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call, teamTokens, token } = await nodeHelpers();

const FP = "d4".repeat(16);
const episode = (session: string, route: string) => ({
  session_kind: "warden.worker",
  command: "warden route",
  outcome: "resolved",
  need_fingerprint: FP,
  route_id: route,
  agent_id: "w",
  session_id: session,
  diagnostic_codes: [],
});

describe("POST /v1/routes/overrides", () => {
  it("retires a served route (audited), clears it, and pins another only after someone else approves", async () => {
    const team = "route-ovr";
    const t = await teamTokens(team);
    for (const s of ["s1", "s2", "s3"])
      expect((await call("POST", "/v1/sessions/events", { token: t.worker, body: episode(s, "r.main") })).status).toBe(
        201,
      );
    const covered = async () =>
      (
        await call("POST", "/v1/memory/activate", {
          token: t.worker,
          body: { session_kind: "warden.worker", need_fingerprint: FP },
        })
      ).json.covered_route;
    expect(await covered()).toBe("r.main");

    const override = (tok: string, body: Record<string, unknown>) =>
      call("POST", "/v1/routes/overrides", { token: tok, body: { need_fingerprint: FP, ...body } });
    const retired = await override(t.admin, { route_id: "r.main", action: "retire", note: "vendor gone" });
    expect(retired.status, retired.text).toBe(200);
    expect(retired.json.state).toBe("retired");
    expect(await covered()).toBeNull();
    const audit = await call("GET", "/v1/audit?type=route.retired", { token: t.admin });
    expect(audit.json.entries?.[0]).toMatchObject({ type: "route.retired", actor: `admin-${team}` });

    expect((await override(t.admin, { route_id: "r.main", action: "clear" })).json.state).toBe("cleared");
    expect(await covered()).toBe("r.main");
    expect((await override(t.admin, { route_id: "r.main", action: "clear" })).json.state).toBe("unchanged");

    const pin = await override(t.admin, { route_id: "r.backup", action: "pin" });
    expect(pin.status, pin.text).toBe(202);
    expect(pin.json).toMatchObject({
      state: "pending_pin",
      status: "pending",
      op_id: expect.stringMatching(/^deploy-route_pin-v1-dop_/),
    });
    expect(await covered()).toBe("r.main"); // nothing changes before the hard gate is approved
    const decide = (tok: string) =>
      call("POST", "/v1/approvals", {
        token: tok,
        body: {
          run_id: pin.json.run_id,
          op_id: pin.json.op_id,
          policy_key: "policy_deploy",
          decision: "approve_retry",
          note: "reviewed",
        },
      });
    expect((await decide(t.admin)).status).toBe(403); // nobody approves their own request
    const gate = await call("GET", `/v1/runs/${pin.json.run_id}/gates/${pin.json.gate_id}`, { token: t.admin });
    expect(gate.json).toMatchObject({ kind: "hard", status: "pending" });
    expect((await decide(t.approver)).status).toBe(200);
    expect(await covered()).toBe("r.backup");
  });

  it("refuses bad input with 400 and non-admins with 403", async () => {
    const admin = await token("route-ovr-bad", ["policy:admin"]);
    for (const body of [
      { need_fingerprint: "not-hex", route_id: "r", action: "retire" },
      { need_fingerprint: FP, route_id: "", action: "retire" },
      { need_fingerprint: FP, route_id: "r", action: "forget" },
      { need_fingerprint: FP, route_id: "r", action: "retire", extra: 1 },
    ]) {
      const res = await call("POST", "/v1/routes/overrides", { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
    }
    const reader = await token("route-ovr-bad", ["runs:read", "memory:write"]);
    const res = await call("POST", "/v1/routes/overrides", {
      token: reader,
      body: { need_fingerprint: FP, route_id: "r", action: "retire" },
    });
    expect(res.status).toBe(403);
  });
});
