// The D1 record: one atomic batch per change (a failed batch leaves no partial rows), retried by the alarm, idempotent.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { approvalEvents, attempts, deadLetters, runs, tableRows, workOrders } from "../../../test/node-d1/table-rows";
import { policyApprovalOp } from "../../../test/record-seeds";
import { createD1RunRecord } from "./store/run-record";
import type { RecordOp } from "./store/run-record-port";

const h = await nodeHelpers();
const { addOrder, complete, env, fireAlarm, lease, outboxSize, scheduledAlarm, setClock, startRun, teamTokens } = h;
const recordRows = tableRows(h);

const attempt = (id: string): RecordOp => ({
  t: "attempt",
  row: {
    attempt_id: id,
    run_id: "run_rec",
    order_id: "o",
    op_id: id,
    outcome: "PASS",
    failure_class: null,
    next: "complete",
    tokens_in: 1,
    tokens_out: 1,
    holder: "worker-1",
    persona_id: null,
    started_at: 1,
    ended_at: 2,
  },
});
const approval = (id: string) => policyApprovalOp(id, 1);

describe("createD1RunRecord", () => {
  it("writes nothing at all when one statement of the batch fails", async () => {
    const record = createD1RunRecord(drizzle(env.DB));
    const broken: RecordOp = {
      t: "dead_letter",
      row: {
        id: "dl-x",
        team_id: "t",
        run_id: "run_rec",
        op_id: "x",
        reason_code: null as unknown as string,
        payload: {},
        created_at: 1,
      },
    };
    await expect(record.write([attempt("a1"), approval("a1"), broken])).rejects.toThrow();
    expect(await recordRows(attempts, eq(attempts.runId, "run_rec"))).toEqual([]);
    expect(await recordRows(approvalEvents, eq(approvalEvents.runId, "run_rec"))).toEqual([]);
    expect(await recordRows(deadLetters, eq(deadLetters.runId, "run_rec"))).toEqual([]);
  });

  it("is idempotent on replay and never lets an older status overwrite a newer one", async () => {
    const record = createD1RunRecord(drizzle(env.DB));
    const run = (status: string, updated_at: number): RecordOp => ({
      t: "run",
      row: { run_id: "run_idem", team_id: "t", goal: "g", status, kind: "agent", created_at: 1, updated_at },
    });
    const batch = [run("RUNNING", 10), attempt("b1"), approval("b1")];
    await record.write(batch);
    await record.write(batch);
    await record.write([run("COMPLETE", 20)]);
    await record.write([run("RUNNING", 10)]);
    expect(
      await recordRows(runs, eq(runs.runId, "run_idem"), { status: runs.status, updated_at: runs.updatedAt }),
    ).toEqual([{ status: "COMPLETE", updated_at: 20 }]);
    expect(await recordRows(attempts, eq(attempts.attemptId, "b1"))).toHaveLength(1);
    expect(await recordRows(approvalEvents, eq(approvalEvents.id, "b1"))).toHaveLength(1);
  });
});

describe("the run outbox", () => {
  it("keeps a change whose D1 batch failed, leaves no partial rows, and lands it exactly once on the alarm's retry", async () => {
    const t = await teamTokens("outbox");
    const run = await startRun(t.worker);
    await addOrder(t.worker, run.run_id, "o1");
    // far from the wall clock, so only runDurableObjectAlarm fires the retry
    const now = await setClock(run.run_id, Date.now() + 2 * 86_400_000);
    const l = (await lease(t.worker, run.run_id, "o1")).json;

    await env.DB.exec("ALTER TABLE dead_letter RENAME TO dead_letter_parked");
    try {
      const res = await complete(t.worker, run.run_id, "o1", {
        lease_id: l.lease_id,
        epoch: 1,
        op_id: "w1",
        outcome: "DECLINE",
        // an unknown class dead-letters without a gate (wrong_value would add its review's escalation alarm)
        failure_class: "mystery_failure",
      });
      expect(res.status).toBe(200);
      expect(res.json.next).toBe("dead_letter");
      // attempt, work order, run status and dead letter travel in one batch: none of them landed
      expect(await recordRows(attempts, eq(attempts.runId, run.run_id))).toEqual([]);
      expect(await recordRows(workOrders, eq(workOrders.runId, run.run_id), { status: workOrders.status })).toEqual([
        { status: "LEASED" },
      ]);
      expect(await recordRows(runs, eq(runs.runId, run.run_id), { status: runs.status })).toEqual([
        { status: "RUNNING" },
      ]);
      expect(await outboxSize(run.run_id)).toBe(1);
      expect(await scheduledAlarm(run.run_id)).toBe(now + 1000);
    } finally {
      await env.DB.exec("ALTER TABLE dead_letter_parked RENAME TO dead_letter");
    }
    expect(await fireAlarm(run.run_id)).toBe(true);
    expect(await outboxSize(run.run_id)).toBe(0);
    expect(await scheduledAlarm(run.run_id)).toBeNull();
    expect(
      await recordRows(attempts, eq(attempts.runId, run.run_id), { op_id: attempts.opId, next: attempts.next }),
    ).toEqual([{ op_id: "w1", next: "dead_letter" }]);
    expect(
      await recordRows(deadLetters, eq(deadLetters.runId, run.run_id), { reason_code: deadLetters.reasonCode }),
    ).toEqual([{ reason_code: "unknown_failure_class" }]);
    expect(await recordRows(runs, eq(runs.runId, run.run_id), { status: runs.status })).toEqual([
      { status: "DEAD_LETTER" },
    ]);
    // a late duplicate of the same alarm changes nothing
    await fireAlarm(run.run_id);
    expect(await recordRows(attempts, eq(attempts.runId, run.run_id))).toHaveLength(1);
  });
});
