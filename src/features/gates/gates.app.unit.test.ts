// Gates and approvals over HTTP: the default matrix, soft timers, hard gates, early approvals, races, team rules, deploys.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { MemrlPolicyProfile } from "../../../contracts/memrl-policy";
import { nodeHelpers } from "../../../test/node-d1/app";
import { approvalEvents, deadLetters, runs, tableRows } from "../../../test/node-d1/table-rows";
import { DEFAULT_PROFILE } from "../policy/default-profile";
import { gateDigest } from "./digest";
import { ESCALATION_AFTER_MS } from "./escalation";
import { DEFAULT_GATE_RULES } from "./rules";

const h = await nodeHelpers();
const { addOrder, call, complete, deps, drainAll, eventLog, fireAlarm, lease, leasedOrder } = h;
const { runState, scheduledAlarm, setClock, startRun, teamTokens, token } = h;
const recordRows = tableRows(h);

const openGate = (tok: string, runId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/runs/${runId}/gates`, { token: tok, body });
const getGate = (tok: string, runId: string, gateId: string) =>
  call("GET", `/v1/runs/${runId}/gates/${gateId}`, { token: tok });
// hard gates need a note: the helper adds one unless the test sets it
const approve = (tok: string, body: Record<string, unknown>) =>
  call("POST", "/v1/approvals", { token: tok, body: { note: "checked by a human", ...body } });
const approvalRows = (runId: string) =>
  recordRows(approvalEvents, eq(approvalEvents.runId, runId), {
    gate_id: approvalEvents.gateId,
    decision: approvalEvents.decision,
    approver: approvalEvents.approver,
    op_id: approvalEvents.opId,
    policy_key: approvalEvents.policyKey,
    reason: approvalEvents.reason,
  });
/** the actions of the team's audit entries, as GET /v1/audit lists them */
const auditActions = async (teamId: string): Promise<string[]> => {
  await drainAll();
  const res = await call("GET", "/v1/audit?limit=100", { token: await token(teamId, ["runs:read"]) });
  expect(res.status, res.text).toBe(200);
  return res.json.entries.map((e: { type: string }) => e.type);
};

describe("the default gate matrix", () => {
  const cases: [string, Record<string, unknown>, string, number | undefined][] = [
    ["wrong_value", {}, "hard", undefined],
    ["budget_increase", { increase_pct: 20 }, "soft", 60_000],
    ["budget_increase", { increase_pct: 20.5 }, "hard", undefined],
    ["budget_increase", {}, "hard", undefined],
    ["schema_rewrite", {}, "hard", undefined],
    ["dead_letter_reissue", {}, "soft", 300_000],
    ["pii_detected", {}, "hard", undefined],
    ["slack_channel_change", {}, "hard", undefined],
    ["schema_invalid", {}, "soft", 120_000],
    ["launch_rockets", {}, "hard", undefined],
  ];
  it.each(cases)("opens %s %j as %s", async (policy_key, context, kind, timeout) => {
    const t = await teamTokens("matrix");
    const run = await startRun(t.worker);
    if (policy_key === "dead_letter_reissue") {
      // needs a dead letter to reissue
      await addOrder(t.worker, run.run_id, "o1");
      const l = (await lease(t.worker, run.run_id, "o1")).json;
      await complete(t.worker, run.run_id, "o1", {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "op-dl",
        outcome: "DECLINE",
        failure_class: "mystery_failure", // wrong_value goes to its hard review instead
      });
    }
    const res = await openGate(t.worker, run.run_id, {
      policy_key,
      op_id: policy_key === "dead_letter_reissue" ? "op-dl" : "op-1",
      context,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.kind).toBe(kind);
    expect(res.json.status).toBe("pending");
    expect(res.json.timeout_ms).toBe(timeout);
  });

  it("never lets a run's caller open a policy_deploy gate directly", async () => {
    const t = await teamTokens("matrix-deploy");
    const run = await startRun(t.worker);
    const res = await openGate(t.worker, run.run_id, { policy_key: "policy_deploy", op_id: "x" });
    expect(res.status).toBe(403);
  });
});

describe("soft gates", () => {
  it("auto-allow when the timer fires, recorded as an auto_allow approval_event, and apply the budget increase", async () => {
    const t = await teamTokens("soft-a");
    const run = await startRun(t.worker);
    const opened = await openGate(t.worker, run.run_id, {
      policy_key: "budget_increase",
      op_id: "op-b",
      context: { increase_pct: 10 },
    });
    expect(opened.json).toMatchObject({ kind: "soft", status: "pending", timeout_ms: 60_000 });
    expect(await scheduledAlarm(run.run_id)).toBe(opened.json.deadline_at);

    await setClock(run.run_id, opened.json.deadline_at - 1);
    await fireAlarm(run.run_id);
    expect((await getGate(t.worker, run.run_id, opened.json.gate_id)).json.status).toBe("pending");

    await setClock(run.run_id, opened.json.deadline_at);
    expect(await fireAlarm(run.run_id)).toBe(true);
    const gate = (await getGate(t.worker, run.run_id, opened.json.gate_id)).json;
    expect(gate).toMatchObject({
      status: "auto_allowed",
      decision: "auto_allow",
      decided_by: "timer",
      decided_at: opened.json.deadline_at,
    });
    expect(await approvalRows(run.run_id)).toEqual([
      expect.objectContaining({
        gate_id: gate.gate_id,
        decision: "auto_allow",
        approver: "timer",
        policy_key: "budget_increase",
      }),
    ]);
    const view = (await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker })).json;
    expect(view.budget).toMatchObject({ input_tokens: 880, output_tokens: 220 });
    expect((await eventLog(run.run_id)).map((e) => e.type)).toEqual(
      expect.arrayContaining(["gate.opened", "gate.decided", "budget.increased"]),
    );
  });

  it("yield to a human decision that comes before the timer; the timer then changes nothing", async () => {
    const t = await teamTokens("soft-b");
    const run = await startRun(t.worker);
    const opened = (await openGate(t.worker, run.run_id, { policy_key: "schema_invalid", op_id: "op-s" })).json;
    const denied = await approve(t.approver, {
      run_id: run.run_id,
      op_id: "op-s",
      policy_key: "schema_invalid",
      decision: "deny",
    });
    expect(denied.json.status).toBe("denied");
    expect(await scheduledAlarm(run.run_id)).toBeNull();
    await setClock(run.run_id, opened.deadline_at + 1);
    await fireAlarm(run.run_id);
    expect((await getGate(t.worker, run.run_id, opened.gate_id)).json.status).toBe("denied");
    expect((await approvalRows(run.run_id)).map((r) => r.decision)).toEqual(["deny"]);
  });
});

describe("hard gates", () => {
  it("block until a human approves: no timer, no auto-approval however late the alarm runs", async () => {
    const t = await teamTokens("hard-a");
    const run = await startRun(t.worker);
    const opened = (
      await openGate(t.worker, run.run_id, {
        policy_key: "budget_increase",
        op_id: "op-h",
        context: { increase_pct: 50 },
      })
    ).json;
    expect(opened).toMatchObject({ kind: "hard", status: "pending" });
    expect(opened.timeout_ms).toBeUndefined();
    // the alarm is armed only for the escalation ping (gates/escalation.ts), never for a decision
    const openedAt = (await getGate(t.worker, run.run_id, opened.gate_id)).json.opened_at;
    expect(await scheduledAlarm(run.run_id)).toBe(openedAt + ESCALATION_AFTER_MS[1]);
    await setClock(run.run_id, Date.now() + 365 * 86_400_000);
    await fireAlarm(run.run_id);
    expect((await getGate(t.worker, run.run_id, opened.gate_id)).json.status).toBe("pending");
    expect(await approvalRows(run.run_id)).toEqual([]);

    const ok = await approve(t.approver, {
      run_id: run.run_id,
      op_id: "op-h",
      policy_key: "budget_increase",
      decision: "approve_retry",
      note: "fine",
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: "approved", decided_by: "approver-hard-a", note: "fine" });
    expect(await approvalRows(run.run_id)).toEqual([
      expect.objectContaining({ decision: "retry", approver: "approver-hard-a" }),
    ]);
    const view = (await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker })).json;
    expect(view.budget.input_tokens).toBe(1200);
  });

  it("refuse an approval from the subject who opened the gate (403) and record nothing", async () => {
    const t = await teamTokens("hard-b");
    const run = await startRun(t.worker);
    await openGate(t.worker, run.run_id, { policy_key: "pii_detected", op_id: "op-p" });
    const self = await approve(t.worker, {
      run_id: run.run_id,
      op_id: "op-p",
      policy_key: "pii_detected",
      decision: "approve_retry",
    });
    expect(self.status).toBe(403);
    expect(await approvalRows(run.run_id)).toEqual([]);
  });

  it("treat a repeated decision as a no-op and a different later decision as a conflict", async () => {
    const t = await teamTokens("hard-c");
    const run = await startRun(t.worker);
    await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-w" });
    const body = { run_id: run.run_id, op_id: "op-w", policy_key: "wrong_value", decision: "approve_skip" };
    const first = await approve(t.approver, body);
    const again = await approve(t.approver, body);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    const other = await approve(t.admin, { ...body, decision: "deny" });
    expect(other.status).toBe(409);
    expect((await approvalRows(run.run_id)).map((r) => r.decision)).toEqual(["skip"]);
  });

  it("reserve auto_allow for the timer (422)", async () => {
    const t = await teamTokens("hard-d");
    const run = await startRun(t.worker);
    await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-w" });
    const res = await approve(t.approver, {
      run_id: run.run_id,
      op_id: "op-w",
      policy_key: "wrong_value",
      decision: "auto_allow",
    });
    expect(res.status).toBe(422);
  });
});

describe("approvals before arming", () => {
  // an early approval names an op the run has announced (here: a pii_detected gate on the same op) and the digest
  // of the content it approves
  const announce = (tok: string, runId: string, op_id: string) =>
    openGate(tok, runId, { policy_key: "pii_detected", op_id });

  it("keep the decision (202) and apply it when the gate opens with the approved content", async () => {
    const t = await teamTokens("early-a");
    const run = await startRun(t.worker);
    await announce(t.worker, run.run_id, "op-e");
    const early = await approve(t.approver, {
      run_id: run.run_id,
      op_id: "op-e",
      policy_key: "schema_rewrite",
      decision: "approve_retry",
      note: "pre-approved",
      digest: gateDigest({ op_id: "op-e", policy_key: "schema_rewrite", context: {} }),
    });
    expect(early.status, early.text).toBe(202);
    expect(early.json).toMatchObject({ status: "not_armed", queued_decision: "approve_retry" });
    expect(await approvalRows(run.run_id)).toEqual([]);

    const opened = await openGate(t.worker, run.run_id, { policy_key: "schema_rewrite", op_id: "op-e" });
    expect(opened.json).toMatchObject({ kind: "hard", status: "allowed", decided_by: "approver-early-a" });
    expect(opened.json.gate_id).toBe(early.json.gate_id);
    const rowsNow = await approvalRows(run.run_id);
    expect(rowsNow).toEqual([expect.objectContaining({ decision: "retry", approver: "approver-early-a" })]);
    expect(rowsNow[0]?.reason).toMatch(/before the gate was armed/);
  });

  it("does not apply an early approval by the subject who then opens the gate", async () => {
    const t = await teamTokens("early-b");
    const run = await startRun(t.worker);
    await announce(t.worker, run.run_id, "op-e");
    const early = await approve(t.worker, {
      run_id: run.run_id,
      op_id: "op-e",
      policy_key: "wrong_value",
      decision: "approve_retry",
      digest: gateDigest({ op_id: "op-e", policy_key: "wrong_value", context: {} }),
    });
    expect(early.status, early.text).toBe(202);
    const opened = await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-e" });
    expect(opened.json.status).toBe("pending");
    expect(await approvalRows(run.run_id)).toEqual([]);
  });

  it("applies an early decision to a gate a failed completion opens", async () => {
    const t = await teamTokens("early-c");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await announce(t.worker, runId, "op-fail");
    const context = { order_id: orderId, failure_class: "schema_invalid", attempt: 1 };
    const early = await approve(t.approver, {
      run_id: runId,
      op_id: "op-fail",
      policy_key: "schema_invalid",
      decision: "approve_retry",
      digest: gateDigest({ op_id: "op-fail", policy_key: "schema_invalid", context }),
    });
    expect(early.status, early.text).toBe(202);
    const res = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "op-fail",
      outcome: "DECLINE",
      failure_class: "schema_invalid",
    });
    expect(res.json).toMatchObject({ next: "retry", retry_after_ms: 0 });
    const again = await lease(t.worker, runId, orderId);
    expect(again.json).toMatchObject({ epoch: 2, strict: true, attempt: 2 });
  });
});

describe("approve and deny racing", () => {
  it("end with exactly one decision per gate, 100 times", async () => {
    const t = await teamTokens("race");
    const run = await startRun(t.worker);
    const n = 100;
    const gates = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: `op-${i}` }),
      ),
    );
    expect(gates.every((g) => g.json.status === "pending")).toBe(true);
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        Promise.all([
          approve(t.approver, {
            run_id: run.run_id,
            op_id: `op-${i}`,
            policy_key: "wrong_value",
            decision: "approve_retry",
          }),
          approve(t.admin, { run_id: run.run_id, op_id: `op-${i}`, policy_key: "wrong_value", decision: "deny" }),
        ]),
      ),
    );
    const recorded = await approvalRows(run.run_id);
    expect(recorded).toHaveLength(n);
    const byGate = new Map(recorded.map((r) => [r.gate_id, r]));
    expect(byGate.size).toBe(n);
    for (let i = 0; i < n; i++) {
      const [a, d] = results[i] as [Awaited<ReturnType<typeof approve>>, Awaited<ReturnType<typeof approve>>];
      expect([a.status, d.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? "retry" : "deny";
      const gateId = (gates[i] as { json: { gate_id: string } }).json.gate_id;
      expect(byGate.get(gateId)?.decision).toBe(winner);
      expect((await getGate(t.worker, run.run_id, gateId)).json.status).toBe(
        winner === "retry" ? "approved" : "denied",
      );
    }
  });
});

describe("team gate rules", () => {
  it("start as the default matrix (version 0)", async () => {
    const t = await teamTokens("rules-a");
    const res = await call("GET", "/v1/policy/gates", { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ version: 0, rules: DEFAULT_GATE_RULES });
  });

  it("activate only after their policy_deploy gate is approved by someone else, then decide new gates", async () => {
    const t = await teamTokens("rules-b");
    const rules = [
      { policy_key: "schema_rewrite", kind: "auto" },
      { policy_key: "slack_channel_change", kind: "deny" },
      { policy_key: "budget_increase", kind: "soft", timeout_ms: 1000 },
    ];
    const put = await call("PUT", "/v1/policy/gates", { token: t.admin, body: { rules } });
    expect(put.status, put.text).toBe(202);
    expect(put.json).toMatchObject({
      version: 1,
      status: "pending",
      op_id: expect.stringMatching(/^deploy-gates-v1-/),
    });
    expect(put.json.run_id).toMatch(/^ctl_/);
    expect((await call("GET", "/v1/policy/gates", { token: t.admin })).json.version).toBe(0);

    const gate = (await getGate(t.admin, put.json.run_id, put.json.gate_id)).json;
    expect(gate).toMatchObject({ kind: "hard", status: "pending", policy_key: "policy_deploy" });
    const decision = {
      run_id: put.json.run_id,
      op_id: put.json.op_id,
      policy_key: "policy_deploy",
      decision: "approve_retry",
    };
    expect((await approve(t.admin, decision)).status).toBe(403);
    expect((await approve(t.approver, decision)).status).toBe(200);

    expect(await call("GET", "/v1/policy/gates", { token: t.admin }).then((r) => r.json)).toEqual({
      version: 1,
      rules,
    });
    const run = await startRun(t.worker);
    expect((await openGate(t.worker, run.run_id, { policy_key: "schema_rewrite", op_id: "a" })).json).toMatchObject({
      kind: "auto",
      status: "allowed",
    });
    expect(
      (await openGate(t.worker, run.run_id, { policy_key: "slack_channel_change", op_id: "b" })).json,
    ).toMatchObject({ kind: "deny", status: "denied" });
    expect(
      (
        await openGate(t.worker, run.run_id, {
          policy_key: "budget_increase",
          op_id: "c",
          context: { increase_pct: 90 },
        })
      ).json,
    ).toMatchObject({ kind: "soft", timeout_ms: 1000 });
    // keys the new set dropped fall back to hard
    expect((await openGate(t.worker, run.run_id, { policy_key: "schema_invalid", op_id: "d" })).json.kind).toBe("hard");
    expect((await approvalRows(run.run_id)).map((r) => [r.policy_key, r.decision, r.approver])).toEqual([
      ["schema_rewrite", "allow", "policy"],
      ["slack_channel_change", "deny", "policy"],
    ]);
    expect(await auditActions("rules-b")).toEqual(
      expect.arrayContaining(["policy.gates.proposed", "policy.gates.activated"]),
    );
  });

  it("stay inactive when the deploy is denied", async () => {
    const t = await teamTokens("rules-c");
    const put = (
      await call("PUT", "/v1/policy/gates", {
        token: t.admin,
        body: { rules: [{ policy_key: "wrong_value", kind: "auto" }] },
      })
    ).json;
    await approve(t.approver, { run_id: put.run_id, op_id: put.op_id, policy_key: "policy_deploy", decision: "deny" });
    expect((await call("GET", "/v1/policy/gates", { token: t.admin })).json.version).toBe(0);
  });

  it("refuse invalid rule sets with the failing paths (400)", async () => {
    const t = await teamTokens("rules-d");
    const bad = [
      { rules: [{ policy_key: "x", kind: "soft" }] },
      { rules: [{ policy_key: "x", kind: "hard", timeout_ms: 5 }] },
      { rules: [{ policy_key: "policy_deploy", kind: "auto" }] },
      { rules: [{ policy_key: "has space", kind: "hard" }] },
      { rules: [{ policy_key: "x", kind: "maybe" }] },
      { rules: [{ policy_key: "x", kind: "hard", when: { pct: {} } }] },
      { rules: "all" },
    ];
    for (const body of bad) {
      const res = await call("PUT", "/v1/policy/gates", { token: t.admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.details.issues.length).toBeGreaterThan(0);
    }
    const noAdmin = await call("PUT", "/v1/policy/gates", {
      token: await token("rules-d", ["policy:decide"]),
      body: { rules: [] },
    });
    expect(noAdmin.status).toBe(403);
  });
});

describe("profile deploys", () => {
  it("decide completions with the new MemRL profile only after the policy_deploy gate is approved", async () => {
    const t = await teamTokens("deploy-a");
    const strict: MemrlPolicyProfile = {
      ...DEFAULT_PROFILE,
      default_mode: "enforce",
      rules: [
        ...DEFAULT_PROFILE.rules.filter((r) => r.rule_id !== "enforce.phase_stall.initial"),
        {
          rule_id: "enforce.phase_stall.initial",
          memrl_mode: "enforce",
          failure_class: "phase_stall",
          attempt_bucket: "initial",
          action: "escalate",
          priority: 100,
        },
      ],
    };
    const { runId, orderId, lease: l } = await leasedOrder(t.worker, "o1");
    await addOrder(t.worker, runId, "o2");

    const put = await call("PUT", "/v1/policy/profile", { token: t.admin, body: strict });
    expect(put.status, put.text).toBe(202);
    expect(put.json).toMatchObject({
      version: 1,
      status: "pending",
      op_id: expect.stringMatching(/^deploy-profile-v1-/),
    });

    const before = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "a1",
      outcome: "ERROR",
      failure_class: "rate_limit",
    });
    expect(before.json).toMatchObject({ next: "retry", decision: { profile_version: 0, memrl_mode: "off" } });

    const ok = await approve(t.approver, {
      run_id: put.json.run_id,
      op_id: put.json.op_id,
      policy_key: "policy_deploy",
      decision: "approve_retry",
    });
    expect(ok.status).toBe(200);
    const profile = await call("GET", "/v1/policy/profile", { token: t.admin });
    expect(profile.headers.get("x-profile-version")).toBe("1");

    const l2 = (await lease(t.worker, runId, "o2")).json;
    const after = await complete(t.worker, runId, "o2", {
      lease_id: l2.lease_id,
      epoch: 1,
      op_id: "b1",
      outcome: "ERROR",
      failure_class: "rate_limit",
    });
    expect(after.json).toMatchObject({
      next: "dead_letter",
      decision: {
        profile_version: 1,
        memrl_mode: "enforce",
        rule_id: "enforce.phase_stall.initial",
        selected_action: "escalate",
      },
    });
    expect((await runState(runId)).deadLetters[after.json.dead_letter_id]?.reason_code).toBe(
      "escalated:enforce.phase_stall.initial",
    );
  });

  it("refuses an invalid profile with 400 and opens no gate", async () => {
    const t = await teamTokens("deploy-b");
    const res = await call("PUT", "/v1/policy/profile", {
      token: t.admin,
      body: { ...DEFAULT_PROFILE, default_mode: "always" },
    });
    expect(res.status).toBe(400);
    expect(await recordRows(runs, eq(runs.teamId, "deploy-b"))).toEqual([]);
  });
});

describe("gates that guard orders and dead letters", () => {
  it("schema_invalid: a soft gate, then one stricter re-prompt, else a dead letter", async () => {
    const t = await teamTokens("guard-a");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const res = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "s1",
      outcome: "DECLINE",
      failure_class: "schema_invalid",
    });
    expect(res.json).toMatchObject({ next: "gate" });
    const gate = (await getGate(t.worker, runId, res.json.gate_id)).json;
    expect(gate).toMatchObject({ kind: "soft", timeout_ms: 120_000, status: "pending", op_id: "s1" });
    expect((await lease(t.worker, runId, orderId)).status).toBe(409);
    await setClock(runId, gate.deadline_at);
    await fireAlarm(runId);
    const l2 = (await lease(t.worker, runId, orderId)).json;
    expect(l2).toMatchObject({ strict: true, epoch: 2, attempt: 2 });
    const again = await complete(t.worker, runId, orderId, {
      lease_id: l2.lease_id,
      epoch: 2,
      op_id: "s2",
      outcome: "DECLINE",
      failure_class: "schema_invalid",
    });
    expect(again.json.next).toBe("dead_letter");
    expect((await runState(runId)).run.status).toBe("DEAD_LETTER");
  });

  it("approve_skip on an order's gate skips the order and approve_abort dead-letters it", async () => {
    const t = await teamTokens("guard-b");
    const run = await startRun(t.worker);
    for (const id of ["o1", "o2"]) await addOrder(t.worker, run.run_id, id);
    for (const [id, decision] of [
      ["o1", "approve_skip"],
      ["o2", "approve_abort"],
    ] as const) {
      const l = (await lease(t.worker, run.run_id, id)).json;
      await complete(t.worker, run.run_id, id, {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: `op-${id}`,
        outcome: "DECLINE",
        failure_class: "schema_invalid",
      });
      await approve(t.approver, { run_id: run.run_id, op_id: `op-${id}`, policy_key: "schema_invalid", decision });
    }
    const state = await runState(run.run_id);
    expect(state.orders.o1?.status).toBe("SKIPPED");
    expect(state.orders.o2?.status).toBe("DEAD_LETTER");
    expect(Object.values(state.deadLetters).map((d) => d.reason_code)).toEqual(["gate_aborted:schema_invalid"]);
  });

  it("reissues a dead letter through its 5-minute soft gate, for one attempt", async () => {
    const t = await teamTokens("guard-c");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const dead = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "w1",
      outcome: "DECLINE",
      // not wrong_value: that one is reissued only through its hard dead_letter_review (dead-letter-review.app.unit.test.ts)
      failure_class: "mystery_failure",
    });
    expect(dead.json).toMatchObject({ next: "dead_letter" });
    expect((await runState(runId)).run.status).toBe("DEAD_LETTER");
    const missing = await openGate(t.worker, runId, { policy_key: "dead_letter_reissue", op_id: "nope" });
    expect(missing.status).toBe(404);

    const gate = (
      await openGate(t.worker, runId, {
        policy_key: "dead_letter_reissue",
        op_id: "reissue-1",
        context: { dead_letter_id: dead.json.dead_letter_id },
      })
    ).json;
    expect(gate).toMatchObject({ kind: "soft", timeout_ms: 300_000, status: "pending" });
    expect((await runState(runId)).run.status).toBe("RUNNING");
    await setClock(runId, gate.deadline_at);
    await fireAlarm(runId);
    const [dlRow] = await recordRows(deadLetters, eq(deadLetters.runId, runId), {
      resolved_at: deadLetters.resolvedAt,
      resolver: deadLetters.resolver,
      reason_code: deadLetters.reasonCode,
    });
    expect(dlRow).toMatchObject({
      resolver: "timer",
      reason_code: "unknown_failure_class",
      resolved_at: gate.deadline_at,
    });

    const l2 = (await lease(t.worker, runId, orderId)).json;
    const fail = await complete(t.worker, runId, orderId, {
      lease_id: l2.lease_id,
      epoch: 2,
      op_id: "w2",
      outcome: "ERROR",
      failure_class: "transient",
    });
    expect(fail.json.next).toBe("dead_letter");
    expect((await runState(runId)).deadLetters[fail.json.dead_letter_id]?.reason_code).toBe("reissue_failed:transient");
  });
});

describe("mode ceiling deploys", () => {
  const decideEnforce = (tok: string) =>
    call("POST", "/v1/policy/decide", {
      token: tok,
      body: { memrl_mode: "enforce", failure_class: "crank_blocked", attempt: 1 },
    });

  it("raise a lowered ceiling only after someone else approves the policy_deploy gate", async () => {
    const t = await teamTokens("ceiling-a");
    await deps.policyStore.setModeCeiling("ceiling-a", "off", "rollback: test", Date.now());
    expect((await decideEnforce(t.admin)).json.memrl_mode).toBe("off");

    const put = await call("PUT", "/v1/policy/mode-ceiling", { token: t.admin, body: { ceiling: "enforce" } });
    expect(put.status, put.text).toBe(202);
    expect(put.json).toMatchObject({
      version: 1,
      status: "pending",
      ceiling: "enforce",
      op_id: expect.stringMatching(/^deploy-ceiling-v1-/),
    });
    expect((await decideEnforce(t.admin)).json.memrl_mode).toBe("off");
    expect((await call("GET", "/v1/policy/mode-ceiling", { token: t.admin })).json).toMatchObject({ ceiling: "off" });

    const self = await approve(t.admin, {
      run_id: put.json.run_id,
      op_id: put.json.op_id,
      policy_key: "policy_deploy",
      decision: "approve_retry",
    });
    expect(self.status).toBe(403);

    const ok = await approve(t.approver, {
      run_id: put.json.run_id,
      op_id: put.json.op_id,
      policy_key: "policy_deploy",
      decision: "approve_retry",
    });
    expect(ok.status, ok.text).toBe(200);
    const after = await decideEnforce(t.admin);
    expect(after.json).toMatchObject({
      memrl_mode: "enforce",
      action: "escalate",
      rule_id: "enforce.crank_blocked.initial",
    });
    expect((await call("GET", "/v1/policy/mode-ceiling", { token: t.admin })).json).toMatchObject({
      ceiling: "enforce",
    });
  });

  it("leave the ceiling where it is when the deploy is denied", async () => {
    const t = await teamTokens("ceiling-b");
    await deps.policyStore.setModeCeiling("ceiling-b", "observe", "rollback: test", Date.now());
    const put = await call("PUT", "/v1/policy/mode-ceiling", { token: t.admin, body: { ceiling: "enforce" } });
    await approve(t.approver, {
      run_id: put.json.run_id,
      op_id: put.json.op_id,
      policy_key: "policy_deploy",
      decision: "deny",
    });
    expect((await decideEnforce(t.admin)).json.memrl_mode).toBe("observe");
  });

  it("refuse a non-admin and an unknown mode", async () => {
    const t = await teamTokens("ceiling-c");
    const worker = await token("ceiling-c", ["policy:decide"], { sub: "w" });
    expect((await call("PUT", "/v1/policy/mode-ceiling", { token: worker, body: { ceiling: "enforce" } })).status).toBe(
      403,
    );
    const bad = await call("PUT", "/v1/policy/mode-ceiling", { token: t.admin, body: { ceiling: "max" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.issues[0].path).toBe("ceiling");
  });
});
