// PATCH /v1/policy/gates merges (PUT replaces); both show the diff against the active rules, on the answer and the gate.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { DEFAULT_GATE_RULES } from "./rules";

const { call, teamTokens, token } = await nodeHelpers();

const approveDeploy = (tok: string, p: { run_id: string; op_id: string }) =>
  call("POST", "/v1/approvals", {
    token: tok,
    body: {
      run_id: p.run_id,
      op_id: p.op_id,
      policy_key: "policy_deploy",
      decision: "approve_retry",
      note: "reviewed",
    },
  });

describe("PATCH /v1/policy/gates", () => {
  it("merges into the active rules after approval, keeping every default it does not name", async () => {
    const t = await teamTokens("patch-merge");
    const body = { rules: [{ policy_key: "schema_rewrite", kind: "soft", timeout_ms: 600_000 }] };
    const res = await call("PATCH", "/v1/policy/gates", { token: t.admin, body });
    expect(res.status, res.text).toBe(202);
    expect(res.json.diff).toEqual({
      added: [],
      removed: [],
      changed: [
        { policy_key: "schema_rewrite", before: [{ policy_key: "schema_rewrite", kind: "hard" }], after: body.rules },
      ],
    });
    // the approver sees the diff on the policy_deploy gate itself
    const gate = await call("GET", `/v1/runs/${res.json.run_id}/gates/${res.json.gate_id}`, { token: t.approver });
    expect(gate.json.context.diff).toEqual(res.json.diff);
    expect((await approveDeploy(t.approver, res.json)).status).toBe(200);
    const active = (await call("GET", "/v1/policy/gates", { token: t.admin })).json;
    expect(active.rules).toHaveLength(DEFAULT_GATE_RULES.length);
    expect(active.rules.filter((r: { policy_key: string }) => r.policy_key === "budget_increase")).toHaveLength(2);
    expect(active.rules.find((r: { policy_key: string }) => r.policy_key === "schema_rewrite")).toEqual(body.rules[0]);
  });

  it("PUT replaces the whole set, and its diff says which keys fall back to hard", async () => {
    const t = await teamTokens("put-replace");
    const res = await call("PUT", "/v1/policy/gates", {
      token: t.admin,
      body: { rules: [{ policy_key: "schema_rewrite", kind: "soft", timeout_ms: 600_000 }] },
    });
    expect(res.status).toBe(202);
    expect(res.json.diff.removed).toContain("budget_increase");
    expect(res.json.diff.removed).toContain("schema_invalid");
  });

  it("refuses a bad patch and a caller without policy:admin", async () => {
    const t = await teamTokens("patch-bad");
    const bad = await call("PATCH", "/v1/policy/gates", {
      token: t.admin,
      body: { rules: [{ policy_key: "x", kind: "soft" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("rules.0.timeout_ms");
    expect((await call("PATCH", "/v1/policy/gates", { token: t.admin, body: {} })).status).toBe(400);
    const worker = await token("patch-bad", ["runs:write"]);
    expect((await call("PATCH", "/v1/policy/gates", { token: worker, body: { rules: [] } })).status).toBe(403);
  });
});
