// The approver's inbox over HTTP: GET /v1/gates lists open gates team-wide, POST /v1/gates/:gate_id/decision decides.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { approvalEvents, tableRows } from "../../../test/node-d1/table-rows";

const h = await nodeHelpers();
const { call, drainAll, setClock, startRun, teamTokens, token } = h;
const recordRows = tableRows(h);

const openGate = (tok: string, runId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/runs/${runId}/gates`, { token: tok, body });
const listGates = async (tok: string, query = "?status=open") => {
  await drainAll();
  return call("GET", `/v1/gates${query}`, { token: tok });
};
const decide = (tok: string, gateId: string, body: unknown) =>
  call("POST", `/v1/gates/${gateId}/decision`, { token: tok, body });

describe("GET /v1/gates", () => {
  it("lists the team's open gates oldest first with run, op, policy key, kind, age and deadline", async () => {
    const t = await teamTokens("inbox-list");
    const a = await startRun(t.worker);
    const b = await startRun(t.worker);
    const first = (await openGate(t.worker, a.run_id, { policy_key: "wrong_value", op_id: "op-1" })).json;
    const second = (
      await openGate(t.worker, b.run_id, { policy_key: "budget_increase", op_id: "op-2", context: { increase_pct: 5 } })
    ).json;
    // the run's clock is pinned: move it so the third gate opens after the second
    await setClock(b.run_id, second.deadline_at);
    await openGate(t.worker, b.run_id, { policy_key: "nothing", op_id: "op-3" });
    // another team's gate never shows
    const other = await teamTokens("inbox-other");
    const o = await startRun(other.worker);
    await openGate(other.worker, o.run_id, { policy_key: "wrong_value", op_id: "op-x" });

    const res = await listGates(t.approver);
    expect(res.status, res.text).toBe(200);
    expect(res.json.gates.map((g: { gate_id: string }) => g.gate_id).slice(0, 2)).toEqual([
      first.gate_id,
      second.gate_id,
    ]);
    expect(res.json.gates).toHaveLength(3);
    expect(res.json.gates[0]).toMatchObject({
      run_id: a.run_id,
      op_id: "op-1",
      policy_key: "wrong_value",
      kind: "hard",
      status: "pending",
      deadline_at: null,
    });
    expect(res.json.gates[0].age_ms).toBeGreaterThanOrEqual(0);
    expect(res.json.gates[1]).toMatchObject({ kind: "soft", deadline_at: second.deadline_at });
  });

  it("drops a gate from the open list once it is decided, and lists it under its decided status", async () => {
    const t = await teamTokens("inbox-decided");
    const run = await startRun(t.worker);
    const g = (await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-1" })).json;
    expect((await decide(t.approver, g.gate_id, { decision: "deny", note: "wrong total" })).status).toBe(200);
    expect((await listGates(t.approver)).json.gates).toEqual([]);
    const denied = await listGates(t.approver, "?status=denied");
    expect(denied.json.gates).toEqual([
      expect.objectContaining({ gate_id: g.gate_id, decided_by: "approver-inbox-decided" }),
    ]);
  });

  it("needs runs:read or approvals:decide and refuses an unknown status", async () => {
    const worker = await token("inbox-scope", ["runs:write"]);
    expect((await call("GET", "/v1/gates", { token: worker })).status).toBe(403);
    const reader = await token("inbox-scope", ["approvals:decide"]);
    expect((await call("GET", "/v1/gates", { token: reader })).status).toBe(200);
    const bad = await call("GET", "/v1/gates?status=sleeping", { token: reader });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("status");
  });
});

describe("POST /v1/gates/:gate_id/decision", () => {
  it("decides the very gate whose id the open call returned", async () => {
    const t = await teamTokens("inbox-decide");
    const run = await startRun(t.worker);
    await openGate(t.worker, run.run_id, { policy_key: "schema_rewrite", op_id: "op-other" });
    const g = (await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-1" })).json;
    await drainAll();
    const res = await decide(t.approver, g.gate_id, { decision: "approve_retry", note: "checked" });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ gate_id: g.gate_id, status: "approved", decided_by: "approver-inbox-decide" });
    const got = await call("GET", `/v1/runs/${run.run_id}/gates/${g.gate_id}`, { token: t.approver });
    expect(got.json).toMatchObject({ status: "approved", note: "checked" });
    // the same decision again changes nothing; another one is a conflict
    expect((await decide(t.approver, g.gate_id, { decision: "approve_retry", note: "checked" })).status).toBe(200);
    expect((await decide(t.approver, g.gate_id, { decision: "deny", note: "no" })).status).toBe(409);
    const approvals = await recordRows(approvalEvents, eq(approvalEvents.runId, run.run_id), {
      gate_id: approvalEvents.gateId,
    });
    expect(approvals).toEqual([{ gate_id: g.gate_id }]);
  });

  it("requires a note for a hard gate, on this route and on /v1/approvals, naming note", async () => {
    const t = await teamTokens("inbox-note");
    const run = await startRun(t.worker);
    const g = (await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-1" })).json;
    await drainAll();
    const bare = await decide(t.approver, g.gate_id, { decision: "approve_retry" });
    expect(bare.status).toBe(400);
    expect(bare.json.error.code).toBe("validation_failed");
    expect(bare.json.error.message).toContain("note");
    expect((await decide(t.approver, g.gate_id, { decision: "deny", note: "  " })).status).toBe(400);
    const legacy = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: { run_id: run.run_id, op_id: "op-1", policy_key: "wrong_value", decision: "approve_retry" },
    });
    expect(legacy.status).toBe(400);
    expect(legacy.json.error.message).toContain("note");
    // a soft gate needs none
    const soft = (
      await openGate(t.worker, run.run_id, {
        policy_key: "budget_increase",
        op_id: "op-2",
        context: { increase_pct: 5 },
      })
    ).json;
    await drainAll();
    expect((await decide(t.approver, soft.gate_id, { decision: "approve_retry" })).status).toBe(200);
  });

  it("refuses a note holding a secret on this route and on /v1/approvals: 422, the gate still open, nothing echoed", async () => {
    const t = await teamTokens("inbox-note-guard");
    const run = await startRun(t.worker);
    const g = (await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-1" })).json;
    await drainAll();
    const secretNote = "checked it, key sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    const inbox = await decide(t.approver, g.gate_id, { decision: "approve_retry", note: secretNote });
    expect(inbox.status, inbox.text).toBe(422);
    expect(inbox.json.error.code).toBe("redaction_required");
    expect(inbox.text).not.toContain("sk_live_");
    const legacy = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: {
        run_id: run.run_id,
        op_id: "op-1",
        policy_key: "wrong_value",
        decision: "approve_retry",
        note: secretNote,
      },
    });
    expect(legacy.status).toBe(422);
    expect(legacy.json.error.code).toBe("redaction_required");
    const open = await listGates(t.approver);
    expect(open.json.gates.map((x: { gate_id: string }) => x.gate_id)).toContain(g.gate_id);
    const clean = await decide(t.approver, g.gate_id, { decision: "approve_retry", note: "value checked" });
    expect(clean.status, clean.text).toBe(200);
  });

  it("keeps the rules of /v1/approvals: no self-approval, reserved auto_allow, typed decision", async () => {
    const t = await teamTokens("inbox-rules");
    const run = await startRun(t.worker);
    const g = (await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-1" })).json;
    await drainAll();
    expect((await decide(t.worker, g.gate_id, { decision: "approve_retry", note: "mine" })).status).toBe(403);
    expect((await decide(t.approver, g.gate_id, { decision: "auto_allow", note: "x" })).status).toBe(422);
    const typo = await decide(t.approver, g.gate_id, { decision: "approve", note: "x" });
    expect(typo.status).toBe(400);
    expect(typo.json.error.message).toContain("decision");
    expect((await decide(t.approver, g.gate_id, { decision: "deny", note: "x", extra: 1 })).status).toBe(400);
  });

  it("answers 404 for an unknown gate or another team's gate, and needs approvals:decide", async () => {
    const t = await teamTokens("inbox-404");
    const other = await teamTokens("inbox-404-other");
    const run = await startRun(other.worker);
    const g = (await openGate(other.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-1" })).json;
    await drainAll();
    expect((await decide(t.approver, g.gate_id, { decision: "deny", note: "x" })).status).toBe(404);
    expect((await decide(t.approver, "gate_nope", { decision: "deny", note: "x" })).status).toBe(404);
    const reader = await token("inbox-404-other", ["runs:read"], { sub: "reader" });
    expect((await decide(reader, g.gate_id, { decision: "deny", note: "x" })).status).toBe(403);
  });
});
