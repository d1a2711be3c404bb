// The dead-letter review over HTTP: a wrong_value dead letter opens a hard dead_letter_review gate (no timer decides
// it) with the evidence; approve_retry reissues once, with the approver's corrected input when given (validated,
// bound to the gate digest, audited, applied exactly once under duplicates and racing approvers); skip and abort.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeGateTools } from "../../../test/node-d1/gate-tools";

const h = await nodeHelpers();
const { call, complete, fireAlarm, lease, leasedOrder, runState, setClock, teamTokens } = h;
const { audited } = nodeGateTools(h);

/** A run whose order o1 failed with wrong_value: the dead letter and its review gate. */
async function wrongValue(teamId: string) {
  const t = await teamTokens(teamId);
  const l = await leasedOrder(t.worker, "o1", { input_json: { invoice: "INV-7", total: 120, currency: "EUR" } });
  const done = await complete(t.worker, l.runId, "o1", {
    lease_id: l.lease.lease_id,
    epoch: l.lease.epoch,
    op_id: "op-wv",
    outcome: "DECLINE",
    failure_class: "wrong_value",
    output: { total: 210, reason: "total does not match the line items" },
  });
  expect(done.status, done.text).toBe(200);
  const gate = await call("GET", `/v1/runs/${l.runId}/gates/${done.json.gate_id}`, { token: t.worker });
  return { t, runId: l.runId, reply: done.json, gate: gate.json };
}

const decide = (tok: string, runId: string, body: Record<string, unknown>) =>
  call("POST", "/v1/approvals", {
    token: tok,
    body: { run_id: runId, op_id: "op-wv", policy_key: "dead_letter_review", note: "checked the invoice", ...body },
  });

describe("dead_letter_review", () => {
  it("opens a hard review gate with the input, output and reason that no timer decides", async () => {
    const { runId, reply, gate } = await wrongValue("dlr-open");
    expect(reply).toMatchObject({
      next: "dead_letter",
      dead_letter_id: expect.any(String),
      gate_id: expect.any(String),
    });
    expect(gate).toMatchObject({ kind: "hard", status: "pending", policy_key: "dead_letter_review" });
    const state = await runState(runId);
    const stored = state.gates[reply.gate_id];
    expect(stored?.context).toMatchObject({
      dead_letter_id: reply.dead_letter_id,
      input: { invoice: "INV-7", total: 120, currency: "EUR" },
      output: { total: 210, reason: "total does not match the line items" },
      reason: "total does not match the line items",
      failure_class: "wrong_value",
      artifacts: [],
    });
    expect(stored?.timeout_ms).toBeNull();
    // a week later, every alarm fired: still pending (a soft dead_letter_reissue would have auto-allowed in 5 min)
    await setClock(runId, Date.now() + 8 * 86_400_000);
    await fireAlarm(runId);
    expect((await runState(runId)).gates[reply.gate_id]?.status).toBe("pending");
  });

  it("edit and retry: reissues once with the patched input and reviewed_by; the patch is audited with the digest", async () => {
    const { t, runId, gate } = await wrongValue("dlr-patch");
    const patch = { total: 210, currency: null, checked: true };
    const r = await decide(t.approver, runId, { decision: "approve_retry", digest: gate.digest, patch });
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe("approved");
    const l = await lease(t.worker, runId, "o1");
    expect(l.status, l.text).toBe(200);
    expect(l.json.order.input_json).toEqual({ invoice: "INV-7", total: 210, checked: true });
    expect(l.json.reviewed_by).toBe("approver-dlr-patch");
    const view = await call("GET", `/v1/runs/${runId}`, { token: t.worker });
    expect(view.json.dead_letters[0]).toMatchObject({ resolver: "approver-dlr-patch" });
    const audit = await audited("dlr-patch", "dead_letter.input_patched");
    expect(audit).toHaveLength(1);
    expect(audit[0]?.metadata ?? {}).toMatchObject({ digest: gate.digest, patch });
    // the reissued order has one attempt: it passes and the run completes
    const done = await complete(t.worker, runId, "o1", {
      lease_id: l.json.lease_id,
      epoch: l.json.epoch,
      op_id: "op-after",
      outcome: "PASS",
    });
    expect(done.json.next).toBe("complete");
  });

  it("applies the patch exactly once: a duplicate changes nothing, a racing second approver gets 409", async () => {
    const { t, runId, gate } = await wrongValue("dlr-race");
    const body = { decision: "approve_retry", digest: gate.digest, patch: { total: 99 } };
    const [a, b] = await Promise.all([
      decide(t.approver, runId, body),
      decide(t.admin, runId, { ...body, patch: { total: 77 } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? 99 : 77;
    const again = await decide(a.status === 200 ? t.approver : t.admin, runId, {
      ...body,
      patch: { total: winner },
    });
    expect(again.status).toBe(200);
    const order = (await runState(runId)).orders.o1;
    expect(order?.body.input_json).toMatchObject({ total: winner });
    expect(order?.status).toBe("QUEUED");
    const audit = await audited("dlr-race", "dead_letter.input_patched");
    expect(audit).toHaveLength(1);
    const reissued = (await call("GET", `/v1/runs/${runId}`, { token: t.worker })).json.orders[0];
    expect(reissued).toMatchObject({
      reissued: true,
      reviewed_by: a.status === 200 ? "approver-dlr-race" : "admin-dlr-race",
    });
  });

  it("refuses a patch without the digest, with a stale digest, with another decision, or holding a secret; nothing changes", async () => {
    const { t, runId, gate } = await wrongValue("dlr-bad");
    const cases: [Record<string, unknown>, number][] = [
      [{ decision: "approve_retry", patch: { total: 1 } }, 400],
      [{ decision: "approve_retry", digest: "0".repeat(64), patch: { total: 1 } }, 409],
      [{ decision: "approve_skip", digest: gate.digest, patch: { total: 1 } }, 400],
      [
        { decision: "approve_retry", digest: gate.digest, patch: { note: "key sk_live_4eC39HqLyjWDarjtT1zdp7dc" } },
        422,
      ],
      [{ decision: "approve_retry", digest: gate.digest, patch: { blob: "x".repeat(70 * 1024) } }, 400],
    ];
    for (const [body, status] of cases) {
      const r = await decide(t.approver, runId, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status);
    }
    const state = await runState(runId);
    expect(state.gates[gate.gate_id]?.status).toBe("pending");
    expect(state.orders.o1?.body.input_json).toEqual({ invoice: "INV-7", total: 120, currency: "EUR" });
  });

  it("refuses a patch on any other gate", async () => {
    const { t, runId } = await wrongValue("dlr-other");
    const g = await call("POST", `/v1/runs/${runId}/gates`, {
      token: t.worker,
      body: { policy_key: "schema_rewrite", op_id: "op-x" },
    });
    const r = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: {
        run_id: runId,
        op_id: "op-x",
        policy_key: "schema_rewrite",
        decision: "approve_retry",
        note: "ok",
        digest: g.json.digest,
        patch: { a: 1 },
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.details.issues[0].path).toBe("patch");
  });

  it("approve_skip resolves the dead letter without a retry; approve_abort ends the run", async () => {
    const skip = await wrongValue("dlr-skip");
    expect((await decide(skip.t.approver, skip.runId, { decision: "approve_skip" })).status).toBe(200);
    const skipped = await runState(skip.runId);
    expect(skipped.orders.o1?.status).toBe("SKIPPED");
    expect(Object.values(skipped.deadLetters)[0]?.resolved_at).not.toBeNull();

    const abort = await wrongValue("dlr-abort");
    const t = abort.t;
    const other = await call("POST", `/v1/runs/${abort.runId}/orders`, {
      token: t.worker,
      body: {
        order_id: "o2",
        task_id: "t2",
        goal: "more",
        input_json: {},
        output_schema_id: "out.v1",
        timeout_sec: 30,
      },
    });
    expect(other.status).toBe(201);
    expect((await decide(t.approver, abort.runId, { decision: "approve_abort" })).status).toBe(200);
    const ended = await runState(abort.runId);
    expect(ended.run.status).toBe("STOPPED");
    expect(ended.orders.o2?.status).toBe("REVOKED");
  });
});
