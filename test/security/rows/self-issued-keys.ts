// Finding 22.2: an admin cannot approve their own deploy through an API key they created for an invented subject —
// a key-issued identity is the same person as the key's creator, both ways and along a chain of keys.
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/features/policy/default-profile";
import type { MatrixHelpers } from "../matrix-helpers";
import { check } from "../table";

/** Registers the rows of this file over `h` (Node stand-ins or workerd). */
export function describeSelfIssuedKeys(h: MatrixHelpers): void {
  const { call, rows, token } = h;

  const TEAM = "self-issued";
  const ROW = "self-issued keys";

  const admin = (sub: string) => token(TEAM, ["policy:admin", "approvals:decide", "runs:read", "runs:write"], { sub });

  /** A key for `subject` created by the holder of `creatorToken`, exchanged for a token. */
  async function keyToken(creatorToken: string, subject: string): Promise<string> {
    const key = await call("POST", "/v1/keys", {
      token: creatorToken,
      body: { subject, scopes: ["policy:admin", "approvals:decide", "runs:read"] },
    });
    expect(key.status, key.text).toBe(201);
    const exchanged = await call("POST", "/v1/tokens", { token: key.json.key, body: {} });
    expect(exchanged.status, exchanged.text).toBe(200);
    return exchanged.json.token as string;
  }

  async function proposeProfile(proposer: string) {
    const res = await call("PUT", "/v1/policy/profile", { token: proposer, body: DEFAULT_PROFILE });
    expect(res.status, res.text).toBe(202);
    return res.json as { run_id: string; op_id: string; gate_id: string };
  }

  const approve = (approver: string, gate: { run_id: string; op_id: string }) =>
    call("POST", "/v1/approvals", {
      token: approver,
      body: {
        run_id: gate.run_id,
        op_id: gate.op_id,
        policy_key: "policy_deploy",
        decision: "approve_retry",
        note: "reviewed the diff",
      },
    });

  async function gateStatus(reader: string, gate: { run_id: string; gate_id: string }) {
    const res = await call("GET", `/v1/runs/${gate.run_id}/gates/${gate.gate_id}`, { token: reader });
    return res.json?.status as string;
  }

  describe("self-issued API keys and the two-person rule", () => {
    it("refuse an admin's own deploy approved through a key they created, and the reverse, and a chain of keys", async () => {
      const alice = await admin("alice");
      const invented = await keyToken(alice, "admin-2");

      const own = await proposeProfile(alice);
      const byKey = await approve(invented, own);
      expect(check(ROW, byKey.status === 403), `${byKey.status} ${byKey.text}`).toBe(true);
      expect(check(ROW, (await gateStatus(alice, own)) === "pending")).toBe(true);

      // a key made with a key-issued token belongs to the first key's creator
      const chained = await keyToken(invented, "admin-3");
      const byChain = await approve(chained, own);
      expect(check(ROW, byChain.status === 403), `${byChain.status} ${byChain.text}`).toBe(true);
      const keys = await call("GET", "/v1/keys", { token: alice });
      const admin3 = (keys.json.keys as { subject: string; created_by: string }[]).find((k) => k.subject === "admin-3");
      expect(check(ROW, admin3?.created_by === "alice")).toBe(true);

      // the reverse: proposed through the key, approved by its creator
      const viaKey = await proposeProfile(invented);
      const byCreator = await approve(alice, viaKey);
      expect(check(ROW, byCreator.status === 403), `${byCreator.status} ${byCreator.text}`).toBe(true);
    });

    it("let a second person approve, and audit the creator behind a key-issued decision", async () => {
      const alice = await admin("alice-2");
      const bob = await admin("bob-2");
      const bobsKey = await keyToken(bob, "deploy-bot");
      const proposed = await proposeProfile(alice);
      const res = await approve(bobsKey, proposed);
      expect(check(ROW, res.status === 200), `${res.status} ${res.text}`).toBe(true);
      const audit = await rows<{ actor: string; metadata: string }>(
        "SELECT actor, metadata FROM audit_log WHERE team_id = ? AND action = 'gate.decided' AND subject_id = ?",
        TEAM,
        proposed.gate_id,
      );
      expect(audit).toHaveLength(1);
      expect(check(ROW, audit[0]?.actor === "deploy-bot")).toBe(true);
      expect(check(ROW, JSON.parse(audit[0]?.metadata ?? "{}").issued_by === "bob-2")).toBe(true);
    });
  });
}
