// Every gate outcome reached over the run objects and D1 (Node stand-ins), shown the same way in the run view, the gate route, the
// inbox, approval rows, the gate index and audit rows, and counted once in the right GET /v1/metrics bucket.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { RunDO } from "../../../durable-objects/run-do";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeGateTools } from "../../../test/node-d1/gate-tools";
import { approvalEvents, tableRows } from "../../../test/node-d1/table-rows";
import { OUTAGE_APPROVER } from "./outcome";

const h = await nodeHelpers();
const { call, deps, drainAll, fireAlarm, setClock, startRun, stubFor, teamTokens, token } = h;
const recordRows = tableRows(h);
const { audited } = nodeGateTools(h);

/** the run's object as workerd types its stub: its RPC methods */
const runObject = (runId: string) => stubFor(runId) as unknown as Pick<RunDO, "decide_gate">;

const TEAM = "outcomes-all";
const openGate = (tok: string, runId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/runs/${runId}/gates`, { token: tok, body });

describe("gate outcomes", () => {
  it("reach approved, denied, timed_out, cancelled, superseded and fallback_denied, each shown and counted once", async () => {
    const t = await teamTokens(TEAM);
    const run = await startRun(t.worker);
    const runId = run.run_id;

    // approved by a person through the CLI (X-Warden-Channel: cli)
    const a = await openGate(t.worker, runId, { policy_key: "wrong_value", op_id: "op-a" });
    const approved = await call("POST", "/v1/approvals", {
      token: t.approver,
      headers: { "X-Warden-Channel": "cli" },
      body: { run_id: runId, op_id: "op-a", policy_key: "wrong_value", decision: "approve_retry", note: "ok" },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json).toMatchObject({ outcome: "approved", channel: "cli", decided_by: `approver-${TEAM}` });

    // denied by a person from the inbox route (web), naming the digest it saw
    const d = await openGate(t.worker, runId, { policy_key: "wrong_value", op_id: "op-d" });
    const denied = await call("POST", `/v1/gates/${d.json.gate_id}/decision`, {
      token: t.approver,
      headers: { "X-Warden-Channel": "web" },
      body: { decision: "deny", note: "wrong invoice", digest: d.json.digest },
    });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.json).toMatchObject({ outcome: "denied", channel: "web", note: "wrong invoice" });

    // timed_out: a soft gate's timer allows it
    const s = await openGate(t.worker, runId, {
      policy_key: "budget_increase",
      op_id: "op-s",
      context: { increase_pct: 10 },
    });
    await setClock(runId, s.json.deadline_at);
    expect(await fireAlarm(runId)).toBe(true);

    // fallback_denied: the approval-outage fallback denies it (the Slack feature calls the run object like this)
    const f = await openGate(t.worker, runId, { policy_key: "wrong_value", op_id: "op-f" });
    const outage = await runObject(runId).decide_gate(runId, {
      actor: { team_id: TEAM, subject: OUTAGE_APPROVER },
      op_id: "op-f",
      policy_key: "wrong_value",
      decision: "deny",
      note: "approval outage: denied by fallback",
    });
    expect(outage.ok).toBe(true);

    // superseded: a newer gate-rule proposal replaces the pending one
    const rules = [{ policy_key: "schema_rewrite", kind: "auto" }];
    const v1 = await call("PUT", "/v1/policy/gates", { token: t.admin, body: { rules } });
    const v2 = await call("PUT", "/v1/policy/gates", { token: t.admin, body: { rules: [] } });
    expect(v2.status, v2.text).toBe(202);

    // cancelled: the run stops while a gate is open
    const other = await startRun(t.worker);
    const c = await openGate(t.worker, other.run_id, { policy_key: "wrong_value", op_id: "op-c" });
    const stopped = await call("POST", `/v1/runs/${other.run_id}/stop`, { token: t.admin, body: { reason: "done" } });
    expect(stopped.status, stopped.text).toBe(200);

    const expected: [string, string, string, string][] = [
      [runId, a.json.gate_id, "approved", "cli"],
      [runId, d.json.gate_id, "denied", "web"],
      [runId, s.json.gate_id, "timed_out", "timer"],
      [runId, f.json.gate_id, "fallback_denied", "outage_fallback"],
      [v1.json.run_id, v1.json.gate_id, "superseded", "policy"],
      [other.run_id, c.json.gate_id, "cancelled", "api"],
    ];
    await drainAll();
    for (const [rid, gateId, outcome, channel] of expected) {
      const gate = await call("GET", `/v1/runs/${rid}/gates/${gateId}`, { token: t.admin });
      expect(gate.json, `${outcome}: gate route`).toMatchObject({ outcome, channel });
      expect(gate.json.waited_ms).toBe(gate.json.decided_at - gate.json.opened_at);
      const view = await call("GET", `/v1/runs/${rid}`, { token: t.admin });
      const inView = view.json.gates.find((g: { gate_id: string }) => g.gate_id === gateId);
      expect(inView, `${outcome}: run view`).toMatchObject({ outcome, channel });
      const indexed = await deps.runIndex.gate(TEAM, gateId);
      expect(indexed?.outcome, `${outcome}: gate index`).toBe(outcome);
      const approvalRows = await recordRows(approvalEvents, eq(approvalEvents.gateId, gateId), {
        outcome: approvalEvents.outcome,
        channel: approvalEvents.channel,
      });
      expect(approvalRows, `${outcome}: approval rows`).toEqual([{ outcome, channel }]);
      const audit = (await audited(TEAM, "gate.decided")).filter((e) => e.subject_id === gateId);
      expect(
        audit.map((r) => r.metadata),
        `${outcome}: audit`,
      ).toEqual([expect.objectContaining({ outcome, channel })]);
      const status = inView.status;
      const inbox = await call("GET", `/v1/gates?status=${status}&limit=200`, { token: t.admin });
      const listed = inbox.json.gates.find((g: { gate_id: string }) => g.gate_id === gateId);
      expect(listed?.outcome, `${outcome}: inbox`).toBe(outcome);
    }

    const metrics = await call("GET", "/v1/metrics", { token: t.admin });
    expect(metrics.status, metrics.text).toBe(200);
    expect(metrics.json.gate_outcomes).toEqual({
      approved: 1,
      denied: 1,
      timed_out: 1,
      cancelled: 1,
      superseded: 1,
      fallback_denied: 1,
    });
    // only the CLI approval and the web denial were people deciding
    expect(metrics.json.human_approvals).toBe(2);
  });

  it("refuses an unknown X-Warden-Channel (400) and a reserved subject (403), leaving the gate pending", async () => {
    const t = await teamTokens("outcomes-channel");
    const run = await startRun(t.worker);
    const g = await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-x" });
    for (const channel of ["slack", "timer", "outage_fallback", "carrier-pigeon"]) {
      const res = await call("POST", "/v1/approvals", {
        token: t.approver,
        headers: { "X-Warden-Channel": channel },
        body: { run_id: run.run_id, op_id: "op-x", policy_key: "wrong_value", decision: "deny", note: "n" },
      });
      expect(res.status, channel).toBe(400);
      expect(res.json.error.message).toMatch(/X-Warden-Channel/);
    }
    // a token whose subject is one of Warden's own deciders cannot pass as the timer or the outage fallback
    for (const sub of ["timer", "policy", OUTAGE_APPROVER]) {
      const res = await call("POST", `/v1/gates/${g.json.gate_id}/decision`, {
        token: await token("outcomes-channel", undefined, { sub }),
        body: { decision: "deny", note: "n" },
      });
      expect(res.status, sub).toBe(403);
    }
    const gate = await call("GET", `/v1/runs/${run.run_id}/gates/${g.json.gate_id}`, { token: t.worker });
    expect(gate.json.status).toBe("pending");
  });

  it("refuses a decision whose digest is not the gate's content (409) and applies nothing", async () => {
    const t = await teamTokens("outcomes-digest");
    const run = await startRun(t.worker);
    const g = await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-y" });
    const res = await call("POST", `/v1/gates/${g.json.gate_id}/decision`, {
      token: t.approver,
      body: { decision: "approve_retry", note: "n", digest: "0".repeat(64) },
    });
    expect(res.status, res.text).toBe(409);
    expect(res.json.error.message).toMatch(/digest/);
    const gate = await call("GET", `/v1/runs/${run.run_id}/gates/${g.json.gate_id}`, { token: t.worker });
    expect(gate.json.status).toBe("pending");
    expect(await recordRows(approvalEvents, eq(approvalEvents.gateId, g.json.gate_id))).toEqual([]);
  });
});
