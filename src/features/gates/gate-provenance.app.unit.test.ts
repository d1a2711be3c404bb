// What opened a gate, as the run view and the gate route show it: the gate-rule version that resolved its kind and,
// for a gate a failed attempt opened, the MemRL profile version whose decision escalated to it.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { DEFAULT_PROFILE } from "../policy/default-profile";

const { call, complete, deps, leasedOrder, teamTokens } = await nodeHelpers();

describe("gate provenance", () => {
  it("carries the profile version of the decision that opened a gate onto the gate, its route and the run view", async () => {
    const team = "gate-provenance";
    const t = await teamTokens(team);
    // the team's profile is version 1 (not the built-in 0), so the version shown is the decision's, not a default
    const { policyStore } = deps;
    const version = await policyStore.addPendingProfile(team, DEFAULT_PROFILE, "test", Date.now());
    expect(await policyStore.activateProfile(team, version, Date.now())).toBe(true);
    expect(version).toBe(1);

    const { runId, orderId, lease } = await leasedOrder(t.worker);
    const res = await complete(t.worker, runId, orderId, {
      lease_id: lease.lease_id,
      epoch: lease.epoch,
      op_id: "op-fail",
      outcome: "DECLINE",
      failure_class: "schema_invalid",
    });
    expect(res.json.next, res.text).toBe("gate");
    expect(res.json.decision.profile_version).toBe(version);

    const gate = await call("GET", `/v1/runs/${runId}/gates/${res.json.gate_id}`, { token: t.admin });
    expect(gate.json).toMatchObject({ rules_version: 0, profile_version: version });
    const view = await call("GET", `/v1/runs/${runId}`, { token: t.admin });
    const inView = view.json.gates.find((g: { gate_id: string }) => g.gate_id === res.json.gate_id);
    expect(inView).toMatchObject({ rules_version: 0, profile_version: version });

    // a gate an agent opens through the API came from no policy decision: no profile version
    const opened = await call("POST", `/v1/runs/${runId}/gates`, {
      token: t.worker,
      body: { policy_key: "wrong_value", op_id: "op-api" },
    });
    const apiGate = await call("GET", `/v1/runs/${runId}/gates/${opened.json.gate_id}`, { token: t.admin });
    expect(apiGate.json.rules_version).toBe(0);
    expect(apiGate.json).not.toHaveProperty("profile_version");
  });
});
