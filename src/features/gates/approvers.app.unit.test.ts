// The deploy-approver roster (security 22.2): once set, only its members decide the team's deploys — a non-member, and
// a key a non-member issued in a member's name, are refused; a new roster is itself a deploy a current member decides.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call, token } = await nodeHelpers();

const TEAM = "team-roster";
const person = (sub: string, team = TEAM) =>
  token(team, ["policy:admin", "approvals:decide", "runs:read", "runs:write"], { sub });

const approve = (approver: string, gate: { run_id: string; op_id: string }) =>
  call("POST", "/v1/approvals", {
    token: approver,
    body: {
      run_id: gate.run_id,
      op_id: gate.op_id,
      policy_key: "policy_deploy",
      decision: "approve_retry",
      note: "ok",
    },
  });

async function proposeRoster(proposer: string, approvers: string[]) {
  const r = await call("PUT", "/v1/policy/approvers", { token: proposer, body: { approvers } });
  expect(r.status, r.text).toBe(202);
  return r.json as { run_id: string; op_id: string; gate_id: string; approvers: string[] };
}

async function proposeIncrease(proposer: string) {
  const r = await call("PUT", "/v1/limits", {
    token: proposer,
    body: { limits: { decide: { per_team: 9000, per_subject: 1200 } } },
  });
  expect(r.status, r.text).toBe(202);
  return r.json as { run_id: string; op_id: string; gate_id: string };
}

/** A key for `subject` created by the holder of `creator`, exchanged for a token. */
async function keyToken(creator: string, subject: string): Promise<string> {
  const key = await call("POST", "/v1/keys", {
    token: creator,
    body: { subject, scopes: ["policy:admin", "approvals:decide", "runs:read"] },
  });
  expect(key.status, key.text).toBe(201);
  return (await call("POST", "/v1/tokens", { token: key.json.key, body: {} })).json.token as string;
}

describe("deploy approvers", () => {
  it("lets only roster members decide deploys once a roster is set, and changes the roster only through a member", async () => {
    const [alice, bob, mallory] = await Promise.all([person("alice"), person("bob"), person("mallory")]);
    const roster = async () => (await call("GET", "/v1/policy/approvers", { token: alice })).json.approvers;
    expect(await roster()).toEqual([]);

    // no roster yet: any second person decides, the proposer never
    const first = await proposeRoster(alice, ["bob", "alice"]);
    expect(first.approvers).toEqual(["alice", "bob"]);
    expect((await approve(alice, first)).status).toBe(403);
    expect(await roster()).toEqual([]);
    expect((await approve(mallory, first)).status).toBe(200);
    expect(await roster()).toEqual(["alice", "bob"]);

    // a deploy now: mallory (not on the roster) is refused, also through a key she issued in bob's name
    const increase = await proposeIncrease(alice);
    const refused = await approve(mallory, increase);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("deploy approvers");
    expect((await approve(await keyToken(mallory, "bob"), increase)).status).toBe(403);
    const limits = async () => (await call("GET", "/v1/limits", { token: alice })).json.limits.decide;
    expect((await limits()).source).toBe("default");
    expect((await approve(bob, increase)).status).toBe(200);
    expect((await limits()).per_team).toBe(9000);

    // mallory cannot add herself: her roster change waits for a member, and she cannot decide it
    const grab = await proposeRoster(mallory, ["mallory", "alice"]);
    expect((await approve(mallory, grab)).status).toBe(403);
    expect((await approve(await person("eve"), grab)).status).toBe(403);
    expect(await roster()).toEqual(["alice", "bob"]);
    expect((await approve(bob, grab)).status).toBe(200);
    expect(await roster()).toEqual(["alice", "mallory"]);
    const audit = await call("GET", "/v1/audit?type=deploy_approvers.updated", { token: alice });
    expect(audit.json.entries).toHaveLength(2);
  });

  it("keeps rosters per team, refuses bad rosters with 400 and non-admins or run-bound tokens with 403", async () => {
    const admin = await person("ann", "team-roster-b");
    for (const approvers of [
      [],
      ["only-one"],
      ["a", "a"],
      ["a", ""],
      "a,b",
      Array.from({ length: 51 }, (_, i) => `p${i}`),
    ]) {
      const r = await call("PUT", "/v1/policy/approvers", { token: admin, body: { approvers } });
      expect(r.status, JSON.stringify(approvers)).toBe(400);
      expect(r.json.error.code).toBe("validation_failed");
    }
    const reader = await token("team-roster-b", ["runs:read"]);
    expect((await call("GET", "/v1/policy/approvers", { token: reader })).status).toBe(403);
    const bound = await token("team-roster-b", ["policy:admin"], { runId: "run_1" });
    expect((await call("PUT", "/v1/policy/approvers", { token: bound, body: { approvers: ["a", "b"] } })).status).toBe(
      403,
    );
    expect((await call("GET", "/v1/policy/approvers", { token: admin })).json).toEqual({
      team_id: "team-roster-b",
      approvers: [],
    });
  });
});
