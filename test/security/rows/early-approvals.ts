// Finding 1: no blind pre-approval of policy deploys (unguessable control-run and deploy op ids, no early approval for
// deploy gates or control runs), early approvals only for announced ops and bound to the gate content digest, and
// early approvals listed in the run view.
import { describe, expect, it } from "vitest";
import { gateDigest } from "../../../src/features/gates/digest";
import type { MatrixHelpers } from "../matrix-helpers";
import { check } from "../table";

/** Registers the rows of this file over `h` (Node stand-ins or workerd). */
export function describeEarlyApprovals(h: MatrixHelpers): void {
  const { call, startRun, teamTokens } = h;

  const approve = (tok: string, body: Record<string, unknown>) => call("POST", "/v1/approvals", { token: tok, body });
  const rules = [{ policy_key: "schema_rewrite", kind: "auto" }];

  async function sha256ControlId(teamId: string) {
    const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`warden-control-run\u001f${teamId}`));
    return `ctl_${[...new Uint8Array(d).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  }

  describe("early approvals", () => {
    it("cannot name a team's control run or its next deploy op before it is proposed", async () => {
      const a = await teamTokens("early-deploy-a");
      const b = await teamTokens("early-deploy-b");
      const putA = await call("PUT", "/v1/policy/gates", { token: a.admin, body: { rules } });
      const putB = await call("PUT", "/v1/policy/gates", { token: b.admin, body: { rules } });
      expect(putA.status, putA.text).toBe(202);
      expect(check("early approvals", putA.json.run_id !== (await sha256ControlId("early-deploy-a")))).toBe(true);
      expect(check("early approvals", putA.json.op_id !== "deploy-gates-v1")).toBe(true);
      expect(check("early approvals", putA.json.op_id.slice(-12) !== putB.json.op_id.slice(-12))).toBe(true);
    });

    it("refuses an early approval for a deploy gate, on the control run and on any run, and the next proposal stays pending", async () => {
      const t = await teamTokens("early-deploy-c");
      const first = await call("PUT", "/v1/policy/gates", { token: t.admin, body: { rules } });
      const ctl = first.json.run_id;
      for (const op_id of ["deploy-gates-v2", `${first.json.op_id.replace("-v1-", "-v2-")}`, "anything"]) {
        const early = await approve(t.approver, {
          run_id: ctl,
          op_id,
          policy_key: "policy_deploy",
          decision: "approve_retry",
          note: "reviewed",
        });
        expect(check("early approvals", early.status === 409), `${op_id} → ${early.status}`).toBe(true);
        const other = await approve(t.approver, {
          run_id: ctl,
          op_id,
          policy_key: "schema_rewrite",
          decision: "deny",
          note: "reviewed",
        });
        expect(check("early approvals", other.status === 409), `control run, ${op_id} → ${other.status}`).toBe(true);
      }
      const run = await startRun(t.admin);
      const onRun = await approve(t.approver, {
        run_id: run.run_id,
        op_id: "deploy-gates-v2",
        policy_key: "policy_deploy",
        decision: "approve_retry",
        note: "reviewed",
      });
      expect(check("early approvals", onRun.status === 409)).toBe(true);
      // approve v1, then propose v2: it waits for a human
      await approve(t.approver, {
        run_id: ctl,
        op_id: first.json.op_id,
        policy_key: "policy_deploy",
        decision: "approve_retry",
        note: "reviewed",
      });
      const second = await call("PUT", "/v1/policy/gates", { token: t.admin, body: { rules: [] } });
      const gate = await call("GET", `/v1/runs/${ctl}/gates/${second.json.gate_id}`, { token: t.admin });
      expect(check("early approvals", gate.json.status === "pending"), gate.text).toBe(true);
      expect((await call("GET", "/v1/policy/gates", { token: t.admin })).json.version).toBe(1);
    });

    it("lists pending early approvals in the run view", async () => {
      const t = await teamTokens("early-view");
      const run = await startRun(t.worker);
      await call("POST", `/v1/runs/${run.run_id}/gates`, {
        token: t.worker,
        body: { policy_key: "pii_detected", op_id: "op-later" },
      });
      const early = await approve(t.approver, {
        run_id: run.run_id,
        op_id: "op-later",
        policy_key: "schema_rewrite",
        decision: "approve_retry",
        note: "reviewed",
        digest: gateDigest({ op_id: "op-later", policy_key: "schema_rewrite", context: {} }),
      });
      expect(early.status).toBe(202);
      const view = await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker });
      const listed = view.json.early_approvals;
      expect(
        check(
          "early approvals",
          listed?.length === 1 && listed[0].op_id === "op-later" && listed[0].decided_by === "approver-early-view",
        ),
        view.text,
      ).toBe(true);
    });

    it("refuses an unannounced op, does not apply a digest mismatch, applies a matching digest", async () => {
      const t = await teamTokens("early-digest");
      const run = await startRun(t.worker);
      const gates = `/v1/runs/${run.run_id}/gates`;
      const early = (op_id: string, context: Record<string, unknown>) =>
        approve(t.approver, {
          run_id: run.run_id,
          op_id,
          policy_key: "schema_rewrite",
          decision: "approve_retry",
          note: "reviewed",
          digest: gateDigest({ op_id, policy_key: "schema_rewrite", context }),
        });
      // unannounced: no attempt, gate or dead letter names the op
      const blind = await early("op-never-seen", {});
      expect(check("early approvals", blind.status === 409), blind.text).toBe(true);
      const opened = await call("POST", gates, {
        token: t.worker,
        body: { policy_key: "schema_rewrite", op_id: "op-never-seen" },
      });
      expect(check("early approvals", opened.json.status === "pending"), opened.text).toBe(true);
      // announced, but no digest at all
      for (const op of ["op-m", "op-ok"])
        await call("POST", gates, { token: t.worker, body: { policy_key: "pii_detected", op_id: op } });
      const noDigest = await approve(t.approver, {
        run_id: run.run_id,
        op_id: "op-m",
        policy_key: "schema_rewrite",
        decision: "approve_retry",
        note: "reviewed",
      });
      expect(check("early approvals", noDigest.status === 400), noDigest.text).toBe(true);
      // digest mismatch: approved content {table: "a"}, the gate opens with {table: "b"}
      expect((await early("op-m", { table: "a" })).status).toBe(202);
      const swapped = await call("POST", gates, {
        token: t.worker,
        body: { policy_key: "schema_rewrite", op_id: "op-m", context: { table: "b" } },
      });
      expect(check("early approvals", swapped.json.status === "pending"), swapped.text).toBe(true);
      const gate = await call("GET", `${gates}/${swapped.json.gate_id}`, { token: t.worker });
      expect(
        check("early approvals", gate.json.early_refused?.why?.startsWith("digest mismatch") === true),
        gate.text,
      ).toBe(true);
      // matching digest: applied the moment the gate opens
      expect((await early("op-ok", { table: "a" })).status).toBe(202);
      const matched = await call("POST", gates, {
        token: t.worker,
        body: { policy_key: "schema_rewrite", op_id: "op-ok", context: { table: "a" } },
      });
      expect(check("early approvals", matched.json.status === "allowed"), matched.text).toBe(true);
    });
  });
}
