// Runs over HTTP: start (snapshot, hints), views, explain-exit, stop, events, budgets, a whole multi-step run, isolation, bad inputs.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { createMemoryDecisionObjects } from "../../../test/fakes/node-stand-ins";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeDecisionLog } from "../../../test/node-d1/decision-log";
import { approvalEvents, attempts, runs, tableRows, workOrders } from "../../../test/node-d1/table-rows";
import { orderBody } from "../../../test/run-calls";
import { retryAdjustments } from "../learning/store/tables";

const h = await nodeHelpers();
const { addOrder, call, complete, env, eventLog, fireAlarm, lease, leasedOrder } = h;
const { outboxSize, runState, setClock, startRun, teamTokens, token } = h;
const recordRows = tableRows(h);

const heartbeat = (tok: string, runId: string, orderId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/runs/${runId}/orders/${orderId}/heartbeat`, { token: tok, body });

/** a learned retry adjustment of the team (what the learning consumer writes), set or replaced */
async function adjust(teamId: string, failureClass: string, backoff: number, maxAttempts: number | null) {
  const row = { backoffMultiplier: backoff, maxAttemptsOverride: maxAttempts, updatedAt: Date.now() };
  await drizzle(env.DB)
    .insert(retryAdjustments)
    .values({ teamId, failureClass, ...row })
    .onConflictDoUpdate({ target: [retryAdjustments.teamId, retryAdjustments.failureClass], set: row });
}

/** The team objects' journals flushed into the decision log's bucket (its port's stand-in), and what that holds. */
const { decisionsInLog, flushJournal } = nodeDecisionLog(h, createMemoryDecisionObjects());

describe("POST /v1/runs", () => {
  it("starts a PENDING run with hints, a policy snapshot, a runs-index row and a run.started event", async () => {
    const t = await teamTokens("start-a");
    const res = await call("POST", "/v1/runs", {
      token: t.worker,
      body: { goal: "Health: Extract & Verify", template: "invoice", skills: ["extract"] },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      status: "PENDING",
      hints: [],
      policy_snapshot: { version: "1.0.0", retry_adjustments: {}, warnings: [] },
    });
    expect(res.json.run_id).toMatch(/^run_[0-9a-f]{32}$/);
    expect(
      await recordRows(runs, eq(runs.runId, res.json.run_id), {
        team_id: runs.teamId,
        goal: runs.goal,
        status: runs.status,
        kind: runs.kind,
      }),
    ).toEqual([{ team_id: "start-a", goal: "Health: Extract & Verify", status: "PENDING", kind: "agent" }]);
    const [started] = await eventLog(res.json.run_id);
    expect(started).toMatchObject({
      type: "run.started",
      team_id: "start-a",
      run_id: res.json.run_id,
      skills: ["extract"],
      seq: 1,
    });
  });

  it("snapshots the team's retry adjustments at start and keeps them for the whole run", async () => {
    const t = await teamTokens("start-b");
    await adjust("start-b", "rate_limit", 2, null);
    await adjust("start-b", "timeout", 1, 1);
    await adjust("start-b", "tool_error", 99, 0);
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const { policy_snapshot: snap } = (await call("GET", `/v1/runs/${runId}`, { token: t.worker })).json;
    expect(snap.retry_adjustments).toEqual({
      rate_limit: { backoff_multiplier: 2, max_attempts_override: null },
      timeout: { backoff_multiplier: 1, max_attempts_override: 1 },
      tool_error: { backoff_multiplier: 1, max_attempts_override: null },
    });
    expect(snap.warnings).toHaveLength(2);
    expect(snap.warnings[0]).toMatch(/^DTL-STRAT-001/);

    // learning changes the table mid-run: this run keeps its snapshot
    await adjust("start-b", "rate_limit", 5, null);
    const r = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "op1",
      outcome: "ERROR",
      failure_class: "rate_limit",
    });
    expect(r.json).toMatchObject({ next: "retry", retry_after_ms: 2000 });

    await addOrder(t.worker, runId, "o2");
    const l2 = (await lease(t.worker, runId, "o2")).json;
    const timeout = await complete(t.worker, runId, "o2", {
      lease_id: l2.lease_id,
      epoch: 1,
      op_id: "op2",
      outcome: "ERROR",
      failure_class: "timeout",
    });
    expect(timeout.json).toMatchObject({ next: "dead_letter" });
    expect((await runState(runId)).deadLetters[timeout.json.dead_letter_id]?.reason_code).toBe(
      "retries_exhausted:timeout",
    );

    const next = await startRun(t.worker);
    expect(next.policy_snapshot.retry_adjustments.rate_limit.backoff_multiplier).toBe(5);
  });

  it("refuses bad bodies with the error envelope", async () => {
    const t = await teamTokens("start-c");
    const cases: [unknown, Record<string, string> | undefined, number, string][] = [
      ["{not json", undefined, 400, "invalid_json"],
      [{}, undefined, 400, "validation_failed"],
      [{ goal: "" }, undefined, 400, "validation_failed"],
      [{ goal: "g", extra: 1 }, undefined, 400, "validation_failed"],
      [{ goal: "g", budget: { input_tokens: 0 } }, undefined, 400, "validation_failed"],
      [{ goal: "g", skills: "extract" }, undefined, 400, "validation_failed"],
      ["goal=g", { "content-type": "application/x-www-form-urlencoded" }, 415, "unsupported_media_type"],
      [JSON.stringify({ goal: "x".repeat(1024 * 1024 + 10) }), undefined, 413, "payload_too_large"],
    ];
    for (const [body, headers, status, code] of cases) {
      const res = await call("POST", "/v1/runs", { token: t.worker, body, headers });
      expect(res.status, String(body).slice(0, 60)).toBe(status);
      expect(res.json.error.code).toBe(code);
      expect(res.json.error.request_id).toMatch(/^req_/);
    }
    expect((await call("POST", "/v1/runs", { body: { goal: "g" } })).status).toBe(401);
    expect(
      (await call("POST", "/v1/runs", { token: await token("start-c", ["runs:read"]), body: { goal: "g" } })).status,
    ).toBe(403);
  });
});

describe("GET /v1/runs/:run_id", () => {
  it("shows the last 10 steps with outcomes, orders, budget use and dead letters", async () => {
    const t = await teamTokens("view-a");
    const run = await startRun(t.worker, { goal: "many steps", budget: { total_tokens: 100_000 } });
    for (let i = 0; i < 12; i++) {
      await addOrder(t.worker, run.run_id, `o${i}`, { skill: "extract" });
      const l = (await lease(t.worker, run.run_id, `o${i}`)).json;
      const failed = i === 11;
      await complete(t.worker, run.run_id, `o${i}`, {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: `op${i}`,
        outcome: failed ? "DECLINE" : "PASS",
        ...(failed ? { failure_class: "wrong_value" } : {}),
        tokens_in: 10,
        tokens_out: 2,
      });
    }
    const view = (await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker })).json;
    expect(view.steps).toHaveLength(10);
    expect(view.steps.map((s: { op_id: string }) => s.op_id)).toEqual([
      "op2",
      "op3",
      "op4",
      "op5",
      "op6",
      "op7",
      "op8",
      "op9",
      "op10",
      "op11",
    ]);
    expect(view.steps.at(-1)).toMatchObject({ outcome: "DECLINE", failure_class: "wrong_value", next: "dead_letter" });
    expect(view.steps_total).toBe(12);
    expect(view.orders).toHaveLength(12);
    expect(view.budget).toEqual({
      input_tokens: 800,
      output_tokens: 200,
      total_tokens: 100_000,
      used: { tokens_in: 120, tokens_out: 24 },
      breaches: 0,
    });
    expect(view.dead_letters).toEqual([
      expect.objectContaining({ order_id: "o11", reason_code: "wrong_value", resolved_at: null }),
    ]);
    // the run ends DEAD_LETTER; the wrong value's hard review stays open for a human
    expect(view.gates).toEqual([expect.objectContaining({ policy_key: "dead_letter_review", status: "pending" })]);
    expect(view.status).toBe("DEAD_LETTER");
  });
});

describe("a multi-step run over HTTP", () => {
  it("goes through retries, a gate, an approval and a dead-letter reissue to COMPLETE", async () => {
    const t = await teamTokens("e2e");
    const run = await startRun(t.worker, { goal: "Health: Extract & Verify", skills: ["extract", "verify"] });
    const id = run.run_id;
    for (const [o, skill] of [
      ["recordgen", "gen"],
      ["extract", "extract"],
      ["verify", "verify"],
    ])
      await addOrder(t.worker, id, o as string, { skill });

    // recordgen passes first time
    let l = (await lease(t.worker, id, "recordgen")).json;
    expect((await heartbeat(t.worker, id, "recordgen", { lease_id: l.lease_id, epoch: l.epoch })).status).toBe(200);
    expect(
      (
        await complete(t.worker, id, "recordgen", {
          lease_id: l.lease_id,
          epoch: 1,
          op_id: "g1",
          outcome: "PASS",
          output: { doc: "d1" },
        })
      ).json.next,
    ).toBe("complete");

    // extract: rate limited, backs off, then declines with schema_invalid → soft gate → human approves → strict re-prompt passes
    l = (await lease(t.worker, id, "extract")).json;
    const rl = (
      await complete(t.worker, id, "extract", {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "x1",
        outcome: "ERROR",
        failure_class: "rate_limit",
        tokens_in: 500,
        tokens_out: 50,
      })
    ).json;
    expect(rl).toMatchObject({ next: "retry", retry_after_ms: 1000 });
    const state = await runState(id);
    await setClock(id, state.orders.extract?.not_before as number);
    await fireAlarm(id);
    l = (await lease(t.worker, id, "extract")).json;
    const si = (
      await complete(t.worker, id, "extract", {
        lease_id: l.lease_id,
        epoch: 2,
        op_id: "x2",
        outcome: "DECLINE",
        failure_class: "schema_invalid",
        tokens_in: 600,
        tokens_out: 80,
      })
    ).json;
    expect(si.next).toBe("gate");
    const approved = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: { run_id: id, op_id: "x2", policy_key: "schema_invalid", decision: "approve_retry", note: "retry once" },
    });
    expect(approved.json.status).toBe("approved");
    l = (await lease(t.worker, id, "extract")).json;
    expect(l.strict).toBe(true);
    expect(
      (
        await complete(t.worker, id, "extract", {
          lease_id: l.lease_id,
          epoch: 3,
          op_id: "x3",
          outcome: "PASS",
          tokens_in: 640,
          tokens_out: 90,
        })
      ).json.next,
    ).toBe("complete");

    // verify: wrong_value → dead letter; the run is DEAD_LETTER until the reissue passes
    l = (await lease(t.worker, id, "verify")).json;
    const wv = (
      await complete(t.worker, id, "verify", {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "v1",
        outcome: "DECLINE",
        failure_class: "wrong_value",
      })
    ).json;
    expect(wv.next).toBe("dead_letter");
    expect((await call("GET", `/v1/runs/${id}`, { token: t.worker })).json.status).toBe("DEAD_LETTER");
    const exitDl = (await call("GET", `/v1/runs/${id}/explain-exit`, { token: t.worker })).json;
    expect(exitDl).toMatchObject({
      ended: true,
      status: "DEAD_LETTER",
      terminal_step: { op_id: "v1", next: "dead_letter" },
    });
    expect(exitDl.reason).toMatch(/verify: wrong_value/);

    // a wrong value is reissued by its hard review, not by the soft reissue gate's timer (refused while it is open)
    const reissue = await call("POST", `/v1/runs/${id}/gates`, {
      token: t.worker,
      body: { policy_key: "dead_letter_reissue", op_id: "v1" },
    });
    expect(reissue.status).toBe(409);
    const reviewed = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: {
        run_id: id,
        op_id: "v1",
        policy_key: "dead_letter_review",
        decision: "approve_retry",
        note: "the extractor misread the total",
      },
    });
    expect(reviewed.status, reviewed.text).toBe(200);
    l = (await lease(t.worker, id, "verify")).json;
    expect(
      (await complete(t.worker, id, "verify", { lease_id: l.lease_id, epoch: 2, op_id: "v2", outcome: "PASS" })).json
        .next,
    ).toBe("complete");

    const view = (await call("GET", `/v1/runs/${id}`, { token: t.worker })).json;
    expect(view.status).toBe("COMPLETE");
    expect(view.budget.used).toEqual({ tokens_in: 1740, tokens_out: 220 });
    expect(view.dead_letters[0]).toMatchObject({ resolver: "approver-e2e" });
    const exit = (await call("GET", `/v1/runs/${id}/explain-exit`, { token: t.worker })).json;
    expect(exit).toMatchObject({
      ended: true,
      status: "COMPLETE",
      terminal_step: { op_id: "v2", outcome: "PASS" },
      steps: 6,
    });
    expect(exit.decisions.map((d: { op_id: string; rule_id: string }) => d.op_id)).toEqual(["x1", "x2", "v1"]);
    expect(exit.gates.map((g: { policy_key: string; status: string }) => [g.policy_key, g.status])).toEqual([
      ["schema_invalid", "approved"],
      ["dead_letter_review", "approved"],
    ]);

    // the durable record
    expect(await recordRows(runs, eq(runs.runId, id), { status: runs.status })).toEqual([{ status: "COMPLETE" }]);
    expect((await recordRows(attempts, eq(attempts.runId, id))).map((r) => r.opId)).toEqual([
      "g1",
      "x1",
      "x2",
      "x3",
      "v1",
      "v2",
    ]);
    expect((await recordRows(workOrders, eq(workOrders.runId, id))).map((r) => r.status)).toEqual([
      "COMPLETE",
      "COMPLETE",
      "COMPLETE",
    ]);
    expect((await recordRows(approvalEvents, eq(approvalEvents.runId, id))).map((r) => r.decision)).toEqual([
      "retry",
      "retry",
    ]);
    expect(await outboxSize(id)).toBe(0);

    // the events a learning consumer needs, with stable ids
    const events = await eventLog(id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
    expect(events.every((e) => e.event_id === `evt_${id}_${e.seq}` && e.team_id === "e2e" && e.run_id === id)).toBe(
      true,
    );
    const failed = events.find((e) => e.type === "task.failed" && e.op_id === "x1");
    expect(failed).toMatchObject({
      task_id: "task-extract",
      skill: "extract",
      outcome: "ERROR",
      failure_class: "rate_limit",
      tokens: { in: 500, out: 50 },
      attempt: 1,
      next: "retry",
    });
    const completed = events.filter((e) => e.type === "run.completed");
    expect(completed.at(-1)).toMatchObject({
      outcome: "COMPLETE",
      skills: ["extract", "verify"],
      tokens: { in: 1740, out: 220 },
      steps: 6,
    });
    expect(completed.at(-1).orders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          order_id: "extract",
          skill: "extract",
          attempts: 3,
          outcome: "PASS",
          failure_classes: ["rate_limit", "schema_invalid"],
        }),
      ]),
    );
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      "run.started",
      "task.created",
      "task.leased",
      "task.completed",
      "task.failed",
      "task.blocked",
      "gate.opened",
      "gate.decided",
      "task.dead_lettered",
      "dead_letter.reissued",
      "policy.decided",
      "run.completed",
      "run.reopened",
    ]) {
      expect(types, t).toContain(t);
    }
  });

  it("waits for a replan after capability_missing and settles once the new order is done", async () => {
    const t = await teamTokens("replan");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const r = (
      await complete(t.worker, runId, orderId, {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "c1",
        outcome: "DECLINE",
        failure_class: "capability_missing",
      })
    ).json;
    expect(r.next).toBe("replan");
    expect((await runState(runId)).run.status).toBe("RUNNING");
    await addOrder(t.worker, runId, "o2");
    const l2 = (await lease(t.worker, runId, "o2")).json;
    await complete(t.worker, runId, "o2", { lease_id: l2.lease_id, epoch: 1, op_id: "c2", outcome: "PASS" });
    expect((await runState(runId)).run.status).toBe("COMPLETE");
  });

  it("dead-letters failures without a failure_class or with an unknown one (fail closed)", async () => {
    const t = await teamTokens("failclosed");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const r = (
      await complete(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: 1, op_id: "m1", outcome: "ERROR" })
    ).json;
    expect(r).toMatchObject({ next: "dead_letter", decision: { rule_id: "default.missing_metadata" } });
    await addOrder(t.worker, runId, "o2");
    const l2 = (await lease(t.worker, runId, "o2")).json;
    const u = (
      await complete(t.worker, runId, "o2", {
        lease_id: l2.lease_id,
        epoch: 1,
        op_id: "m2",
        outcome: "ERROR",
        failure_class: "gremlins",
      })
    ).json;
    expect(u).toMatchObject({ next: "dead_letter", decision: { rule_id: "default.unknown_failure_class" } });
  });
});

describe("decisions and the decision log", () => {
  it("logs each completion's MemRL decision through the team's decision journal into the decision log", async () => {
    const t = await teamTokens("declog");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const r = (
      await complete(t.worker, runId, orderId, {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "d1",
        outcome: "ERROR",
        failure_class: "timeout",
      })
    ).json;
    const decisionId = r.decision.decision_id;
    let logged: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && logged.length === 0; i++) {
      // the run's outbox hands the decision to the team's journal behind the answer; its alarm writes the log
      await new Promise((res) => setTimeout(res, 100));
      await flushJournal("declog");
      logged = (await decisionsInLog("declog"))
        .filter((d) => d.decision_id === decisionId)
        .map(({ run_id, task_id, rule_id, selected_action, failure_class, attempt_bucket, profile_version }) => ({
          run_id,
          task_id,
          rule_id,
          selected_action,
          failure_class,
          attempt_bucket,
          profile_version,
        }));
    }
    expect(logged).toEqual([
      {
        run_id: runId,
        task_id: `task-${orderId}`,
        rule_id: "off.phase_timeout.initial",
        selected_action: "retry",
        failure_class: "phase_timeout",
        attempt_bucket: "initial",
        profile_version: 0,
      },
    ]);
  });
});

describe("token budgets", () => {
  it("refuse a step over the input cap: the output is not accepted, one trimmed retry, then a dead letter", async () => {
    const t = await teamTokens("budget-a");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const r = (
      await complete(t.worker, runId, orderId, {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "b1",
        outcome: "PASS",
        tokens_in: 801,
        tokens_out: 10,
        output: { x: 1 },
      })
    ).json;
    expect(r).toMatchObject({ next: "retry", refused: "budget.step_input", retry_after_ms: 0 });
    const state = await runState(runId);
    expect(state.orders[orderId]).toMatchObject({
      status: "QUEUED",
      output: null,
      last: { outcome: "DECLINE", failure_class: "budget_exceeded" },
    });
    expect((await eventLog(runId)).some((e) => e.type === "budget.breached" && e.rule === "budget.step_input")).toBe(
      true,
    );
    const l2 = (await lease(t.worker, runId, orderId)).json;
    const r2 = (
      await complete(t.worker, runId, orderId, {
        lease_id: l2.lease_id,
        epoch: 2,
        op_id: "b2",
        outcome: "PASS",
        tokens_in: 100,
        tokens_out: 201,
      })
    ).json;
    expect(r2).toMatchObject({ next: "dead_letter", refused: "budget.step_output" });
  });

  it("accept a step exactly at the caps and honour the order's cost budget and the run total", async () => {
    const t = await teamTokens("budget-b");
    const run = await startRun(t.worker, { goal: "g", budget: { total_tokens: 1500 } });
    await addOrder(t.worker, run.run_id, "o1");
    await addOrder(t.worker, run.run_id, "o2", { cost_budget_tokens: 100 });
    await addOrder(t.worker, run.run_id, "o3");
    let l = (await lease(t.worker, run.run_id, "o1")).json;
    expect(
      (
        await complete(t.worker, run.run_id, "o1", {
          lease_id: l.lease_id,
          epoch: 1,
          op_id: "a",
          outcome: "PASS",
          tokens_in: 800,
          tokens_out: 200,
        })
      ).json.next,
    ).toBe("complete");
    l = (await lease(t.worker, run.run_id, "o2")).json;
    expect(l.budget).toEqual({ input_tokens: 800, output_tokens: 200, cost_budget_tokens: 100, run_tokens_left: 500 });
    expect(
      (
        await complete(t.worker, run.run_id, "o2", {
          lease_id: l.lease_id,
          epoch: 1,
          op_id: "b",
          outcome: "PASS",
          tokens_in: 90,
          tokens_out: 11,
        })
      ).json.refused,
    ).toBe("budget.order_cost");
    l = (await lease(t.worker, run.run_id, "o3")).json;
    const over = (
      await complete(t.worker, run.run_id, "o3", {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "c",
        outcome: "PASS",
        tokens_in: 400,
        tokens_out: 100,
      })
    ).json;
    expect(over).toMatchObject({ next: "dead_letter", refused: "budget.run_total" });
  });
});

describe("POST /v1/runs/:run_id/stop", () => {
  it("revokes open leases, aborts pending gates, ends the run, and is idempotent", async () => {
    const t = await teamTokens("stop-a");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await addOrder(t.worker, runId, "o2");
    await call("POST", `/v1/runs/${runId}/gates`, {
      token: t.worker,
      body: { policy_key: "wrong_value", op_id: "g1" },
    });
    const res = await call("POST", `/v1/runs/${runId}/stop`, { token: t.admin, body: { reason: "operator" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "STOPPED", revoked_leases: [orderId], revoked_orders: [orderId, "o2"] });
    expect(res.json.aborted_gates).toHaveLength(1);
    expect((await heartbeat(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: 1 })).status).toBe(409);
    expect(
      (await complete(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: 1, op_id: "late", outcome: "PASS" }))
        .status,
    ).toBe(409);
    expect((await lease(t.worker, runId, "o2")).status).toBe(409);
    expect((await call("POST", `/v1/runs/${runId}/orders`, { token: t.worker, body: orderBody("o3") })).status).toBe(
      409,
    );
    expect(
      await recordRows(approvalEvents, eq(approvalEvents.runId, runId), {
        decision: approvalEvents.decision,
        approver: approvalEvents.approver,
      }),
    ).toEqual([{ decision: "abort", approver: "admin-stop-a" }]);
    const again = await call("POST", `/v1/runs/${runId}/stop`, { token: t.admin });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ status: "STOPPED", revoked_leases: [] });
    const completed = (await eventLog(runId)).filter((e) => e.type === "run.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ outcome: "STOPPED" });
    expect((await call("GET", `/v1/runs/${runId}/explain-exit`, { token: t.worker })).json.reason).toMatch(
      /stopped by admin-stop-a: operator/,
    );
    const ctl = (await call("PUT", "/v1/policy/gates", { token: t.admin, body: { rules: [] } })).json;
    expect((await call("POST", `/v1/runs/${ctl.run_id}/stop`, { token: t.admin })).status).toBe(422);
  });
});

describe("isolation", () => {
  it("hides another team's run (404) for every route", async () => {
    const a = await teamTokens("iso-a");
    const b = await teamTokens("iso-b");
    const { runId, orderId, lease: l } = await leasedOrder(a.worker);
    const gate = (
      await call("POST", `/v1/runs/${runId}/gates`, {
        token: a.worker,
        body: { policy_key: "wrong_value", op_id: "g" },
      })
    ).json;
    const attempts: [string, string, unknown][] = [
      ["GET", `/v1/runs/${runId}`, undefined],
      ["GET", `/v1/runs/${runId}/explain-exit`, undefined],
      ["POST", `/v1/runs/${runId}/orders`, orderBody("x")],
      ["POST", `/v1/runs/${runId}/orders/${orderId}/lease`, { worker_id: "w" }],
      ["POST", `/v1/runs/${runId}/orders/${orderId}/heartbeat`, { lease_id: l.lease_id, epoch: 1 }],
      [
        "POST",
        `/v1/runs/${runId}/orders/${orderId}/complete`,
        { lease_id: l.lease_id, epoch: 1, op_id: "z", outcome: "PASS" },
      ],
      ["POST", `/v1/runs/${runId}/gates`, { policy_key: "wrong_value", op_id: "g" }],
      ["GET", `/v1/runs/${runId}/gates/${gate.gate_id}`, undefined],
      ["POST", "/v1/approvals", { run_id: runId, op_id: "g", policy_key: "wrong_value", decision: "approve_retry" }],
      ["POST", `/v1/runs/${runId}/stop`, undefined],
    ];
    const before = await runState(runId);
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, { token: b.approver, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }
    expect(await runState(runId)).toEqual(before);
  });

  it("keeps run- and task-bound tokens to their own run and orders (403)", async () => {
    const t = await teamTokens("iso-c");
    const r1 = await startRun(t.worker);
    const r2 = await startRun(t.worker);
    await addOrder(t.worker, r1.run_id, "mine", { task_id: "task-1" });
    await addOrder(t.worker, r1.run_id, "theirs", { task_id: "task-2" });
    await addOrder(t.worker, r2.run_id, "other");
    const bound = await token("iso-c", ["runs:write", "runs:read"], {
      sub: "w-bound",
      runId: r1.run_id,
      taskId: "task-1",
    });
    expect((await lease(bound, r2.run_id, "other")).status).toBe(403);
    expect((await call("GET", `/v1/runs/${r2.run_id}`, { token: bound })).status).toBe(403);
    expect((await call("POST", "/v1/runs", { token: bound, body: { goal: "g" } })).status).toBe(403);
    expect((await lease(bound, r1.run_id, "theirs")).status).toBe(403);
    expect(
      (
        await call("POST", `/v1/runs/${r1.run_id}/orders`, {
          token: bound,
          body: orderBody("new", { task_id: "task-2" }),
        })
      ).status,
    ).toBe(403);
    const mine = await lease(bound, r1.run_id, "mine");
    expect(mine.status).toBe(200);
    const theirs = (await lease(t.worker, r1.run_id, "theirs")).json;
    expect((await heartbeat(bound, r1.run_id, "theirs", { lease_id: theirs.lease_id, epoch: 1 })).status).toBe(403);
    expect(
      (await complete(bound, r1.run_id, "theirs", { lease_id: theirs.lease_id, epoch: 1, op_id: "x", outcome: "PASS" }))
        .status,
    ).toBe(403);
    expect(
      (
        await complete(bound, r1.run_id, "mine", {
          lease_id: mine.json.lease_id,
          epoch: 1,
          op_id: "y",
          outcome: "PASS",
        })
      ).status,
    ).toBe(200);
  });
});

describe("bad inputs on run routes", () => {
  it("answer 400/404/409/413/415/422 with the envelope, never a 5xx", async () => {
    const t = await teamTokens("bad");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const ctl = (await call("PUT", "/v1/policy/gates", { token: t.admin, body: { rules: [] } })).json;
    const cases: [string, string, unknown, number, Record<string, string>?][] = [
      ["GET", "/v1/runs/run_missing", undefined, 404],
      ["POST", "/v1/runs/run_missing/orders", orderBody("a"), 404],
      ["POST", `/v1/runs/${runId}/orders/nope/lease`, { worker_id: "w" }, 404],
      ["GET", `/v1/runs/${runId}/gates/gate_nope`, undefined, 404],
      ["POST", `/v1/runs/${runId}/orders`, { ...orderBody("b"), timeout_sec: 0 }, 400],
      ["POST", `/v1/runs/${runId}/orders`, { ...orderBody("b"), extra: true }, 400],
      ["POST", `/v1/runs/${runId}/orders`, orderBody(orderId, { goal: "another" }), 409],
      ["POST", `/v1/runs/${runId}/orders`, orderBody("huge", { input_json: { blob: "x".repeat(300 * 1024) } }), 413],
      ["POST", `/v1/runs/${runId}/orders/${orderId}/lease`, {}, 400],
      ["POST", `/v1/runs/${runId}/orders/${orderId}/heartbeat`, { lease_id: l.lease_id, epoch: "1" }, 400],
      ["POST", `/v1/runs/${runId}/orders/${orderId}/heartbeat`, { lease_id: l.lease_id, epoch: 0 }, 400],
      [
        "POST",
        `/v1/runs/${runId}/orders/${orderId}/complete`,
        { lease_id: l.lease_id, epoch: 1, op_id: "o", outcome: "MAYBE" },
        400,
      ],
      [
        "POST",
        `/v1/runs/${runId}/orders/${orderId}/complete`,
        { lease_id: l.lease_id, epoch: 1, op_id: "o", outcome: "PASS", tokens_in: -1 },
        400,
      ],
      [
        "POST",
        `/v1/runs/${runId}/orders/${orderId}/complete`,
        { lease_id: l.lease_id, epoch: 1, op_id: "o", outcome: "PASS", output: "x".repeat(300 * 1024) },
        413,
      ],
      ["POST", `/v1/runs/${runId}/orders/${orderId}/complete`, "outcome=PASS", 415, { "content-type": "text/plain" }],
      ["POST", `/v1/runs/${runId}/gates`, { policy_key: "bad key!", op_id: "g" }, 400],
      [
        "POST",
        `/v1/runs/${runId}/gates`,
        { policy_key: "wrong_value", op_id: "g", context: { blob: "x".repeat(20_000) } },
        413,
      ],
      ["POST", "/v1/approvals", { run_id: runId, op_id: "g", policy_key: "wrong_value", decision: "maybe" }, 400],
      [
        "POST",
        "/v1/approvals",
        { run_id: "run_missing", op_id: "g", policy_key: "wrong_value", decision: "deny" },
        404,
      ],
      ["POST", `/v1/runs/${ctl.run_id}/orders`, orderBody("c"), 422],
      ["POST", `/v1/runs/${runId}/stop`, { reason: 5 }, 400],
    ];
    for (const [method, path, body, status, headers] of cases) {
      const res = await call(method, path, { token: t.approver, body, headers });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBe(status);
      expect(res.json.error.request_id).toMatch(/^req_/);
    }
    // same gate op_id + key with another context
    await call("POST", `/v1/runs/${runId}/gates`, {
      token: t.worker,
      body: { policy_key: "wrong_value", op_id: "g2", context: { a: 1 } },
    });
    expect(
      (
        await call("POST", `/v1/runs/${runId}/gates`, {
          token: t.worker,
          body: { policy_key: "wrong_value", op_id: "g2", context: { a: 2 } },
        })
      ).status,
    ).toBe(409);
    // posting the same order again is idempotent
    const same = await call("POST", `/v1/runs/${runId}/orders`, { token: t.worker, body: orderBody(orderId) });
    expect(same.status).toBe(201);
    expect(same.json.status).toBe("LEASED");
  });
});
