// Leases over HTTP and inside the run's Durable Object: expiry and rescue, epochs, eviction, idempotent completion, alarms.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { RunDO } from "../../../durable-objects/run-do";
import { runInDurableObject } from "../../../test/fakes/durable-objects";
import { nodeHelpers } from "../../../test/node-d1/app";
import { attempts, deadLetters, tableRows, workOrders } from "../../../test/node-d1/table-rows";
import { HEARTBEAT_MS, LEASE_TTL_MS, MAX_RESCUES } from "./model";

const h = await nodeHelpers();
const { addOrder, call, complete, eventLog, evictRun, fireAlarm, lease, leasedOrder } = h;
const { runState, scheduledAlarm, setClock, startRun, stubFor, teamTokens } = h;
const recordRows = tableRows(h);
const reasonCodes = (runId: string) =>
  recordRows(deadLetters, eq(deadLetters.runId, runId), { reason_code: deadLetters.reasonCode });

const heartbeat = (tok: string, runId: string, orderId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/runs/${runId}/orders/${orderId}/heartbeat`, { token: tok, body });

describe("leases", () => {
  it("grants a 30 s lease with epoch 1, a 10 s heartbeat and the order to work on", async () => {
    const t = await teamTokens("lease-a");
    const before = Date.now();
    const { lease: l } = await leasedOrder(t.worker, "o1", { input_json: { doc: "INV-1" } });
    expect(l).toMatchObject({
      epoch: 1,
      lease_ttl_ms: LEASE_TTL_MS,
      heartbeat_ms: HEARTBEAT_MS,
      attempt: 1,
      strict: false,
    });
    expect(l.expires_at).toBeGreaterThanOrEqual(before + LEASE_TTL_MS);
    expect((l as any).order.input_json).toEqual({ doc: "INV-1" });
    expect((l as any).budget).toEqual({ input_tokens: 800, output_tokens: 200 });
  });

  it("refuses a second lease while one is held (409) and arms the alarm for its expiry", async () => {
    const t = await teamTokens("lease-b");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const second = await lease(t.worker, runId, orderId, "w2");
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe("conflict");
    expect(await scheduledAlarm(runId)).toBe(l.expires_at);
  });

  it("rescues an expired lease by alarm and re-issues the order with epoch + 1", async () => {
    const t = await teamTokens("lease-c");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await setClock(runId, l.expires_at + 1);
    expect(await fireAlarm(runId)).toBe(true);
    const state = await runState(runId);
    expect(state.orders[orderId]).toMatchObject({ status: "QUEUED", lease: null, epoch: 1, rescues: 1 });
    expect((await eventLog(runId)).map((e) => e.type)).toContain("task.lease_expired");

    const again = await lease(t.worker, runId, orderId, "w2");
    expect(again.status).toBe(200);
    expect(again.json.epoch).toBe(2);
    // the first holder is fenced off
    const late = await heartbeat(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: l.epoch });
    expect(late.status).toBe(409);
  });

  it("does not rescue a lease before it expires, even when the alarm runs early", async () => {
    const t = await teamTokens("lease-d");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await setClock(runId, l.expires_at - 1);
    await fireAlarm(runId);
    expect((await runState(runId)).orders[orderId]?.status).toBe("LEASED");
    expect(await scheduledAlarm(runId)).toBe(l.expires_at);
  });

  it("extends the lease on heartbeat and moves the alarm to the new expiry", async () => {
    const t = await teamTokens("lease-e");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const at = await setClock(runId, l.expires_at - LEASE_TTL_MS + HEARTBEAT_MS);
    const hb = await heartbeat(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: l.epoch });
    expect(hb.status).toBe(200);
    expect(hb.json.expires_at).toBe(at + LEASE_TTL_MS);
    expect(await scheduledAlarm(runId)).toBe(at + LEASE_TTL_MS);
  });

  it("refuses stale-epoch heartbeats and completions with 409 and changes nothing", async () => {
    const t = await teamTokens("lease-f");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await setClock(runId, l.expires_at + 1);
    await fireAlarm(runId);
    const fresh = await lease(t.worker, runId, orderId, "w2");
    const before = await runState(runId);
    const eventsBefore = (await eventLog(runId)).length;

    const hb = await heartbeat(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: 1 });
    expect(hb.status).toBe(409);
    expect(hb.json.error.message).toMatch(/stale epoch 1/);
    const done = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "late-op",
      outcome: "PASS",
    });
    expect(done.status).toBe(409);
    // right epoch, wrong lease id
    const forged = await heartbeat(t.worker, runId, orderId, { lease_id: "lease_forged", epoch: fresh.json.epoch });
    expect(forged.status).toBe(409);

    expect(await runState(runId)).toEqual(before);
    expect((await eventLog(runId)).length).toBe(eventsBefore);
    expect(await recordRows(attempts, eq(attempts.runId, runId))).toEqual([]);
  });

  it("refuses a heartbeat on an expired lease that the alarm has not rescued yet", async () => {
    const t = await teamTokens("lease-g");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await setClock(runId, l.expires_at);
    const hb = await heartbeat(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: l.epoch });
    expect(hb.status).toBe(409);
    expect(hb.json.error.message).toMatch(/expired/);
    // a new lease request rescues it inline and fences the old epoch
    const next = await lease(t.worker, runId, orderId, "w2");
    expect(next.json.epoch).toBe(2);
  });

  it(`dead-letters an order whose lease expired ${MAX_RESCUES} times`, async () => {
    const t = await teamTokens("lease-h");
    const { runId, orderId, lease: first } = await leasedOrder(t.worker);
    let expires = first.expires_at;
    for (let i = 1; i <= MAX_RESCUES; i++) {
      await setClock(runId, expires + 1);
      await fireAlarm(runId);
      if (i < MAX_RESCUES) expires = (await lease(t.worker, runId, orderId, `w${i}`)).json.expires_at;
    }
    const state = await runState(runId);
    expect(state.orders[orderId]?.status).toBe("DEAD_LETTER");
    const [dl] = Object.values(state.deadLetters);
    expect(dl?.reason_code).toBe("lease_expired");
    expect(state.run.status).toBe("DEAD_LETTER");
    expect(await reasonCodes(runId)).toEqual([{ reason_code: "lease_expired" }]);
  });

  it("keeps the lease through an eviction and still rescues it, nothing lost", async () => {
    const t = await teamTokens("lease-i");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await addOrder(t.worker, runId, "o2");
    const before = await runState(runId);
    const stub = stubFor(runId);
    await runInDurableObject(stub, (instance: RunDO) => {
      (instance as unknown as { marker: string }).marker = "old instance";
    });
    await evictRun(runId);

    // a fresh instance, rebuilt from storage
    const marker = await runInDurableObject(
      stubFor(runId),
      (instance: RunDO) => (instance as unknown as { marker?: string }).marker,
    );
    expect(marker).toBeUndefined();
    expect(await runState(runId)).toEqual(before);
    expect(await scheduledAlarm(runId)).toBe(l.expires_at);

    await setClock(runId, l.expires_at + 1);
    expect(await fireAlarm(runId)).toBe(true);
    const after = await runState(runId);
    expect(after.orders[orderId]).toMatchObject({ status: "QUEUED", rescues: 1, epoch: 1 });
    expect(after.orders.o2?.status).toBe("QUEUED");
    const again = await lease(t.worker, runId, orderId, "w2");
    expect(again.json.epoch).toBe(2);
    const done = await complete(t.worker, runId, orderId, {
      lease_id: again.json.lease_id,
      epoch: 2,
      op_id: "op-after-evict",
      outcome: "PASS",
    });
    expect(done.json).toEqual({ next: "complete", attempt: 1 });
  });
});

describe("completions", () => {
  it("answers a repeated completion (same op_id, same body) with the same response and records one attempt", async () => {
    const t = await teamTokens("done-a");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const body = {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: "op-1",
      outcome: "ERROR",
      failure_class: "rate_limit",
      tokens_in: 100,
      tokens_out: 20,
    };
    const first = await complete(t.worker, runId, orderId, body);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ next: "retry", retry_after_ms: 1000, attempt: 1 });
    const eventsAfterFirst = (await eventLog(runId)).length;
    const stateAfterFirst = await runState(runId);

    const second = await complete(t.worker, runId, orderId, body);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect((await eventLog(runId)).length).toBe(eventsAfterFirst);
    expect(await runState(runId)).toEqual(stateAfterFirst);
    expect(
      await recordRows(attempts, eq(attempts.runId, runId), {
        op_id: attempts.opId,
        outcome: attempts.outcome,
        next: attempts.next,
      }),
    ).toEqual([{ op_id: "op-1", outcome: "ERROR", next: "retry" }]);
  });

  it("refuses the same op_id with a different body (409) and changes nothing", async () => {
    const t = await teamTokens("done-b");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: "op-1",
      outcome: "PASS",
      tokens_in: 5,
    });
    const before = await runState(runId);
    const other = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: "op-1",
      outcome: "PASS",
      tokens_in: 6,
    });
    expect(other.status).toBe(409);
    expect(other.json.error.message).toMatch(/different body/);
    expect(await runState(runId)).toEqual(before);
  });

  it("refuses an op_id reused for another order of the run", async () => {
    const t = await teamTokens("done-c");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await addOrder(t.worker, runId, "o2");
    const l2 = (await lease(t.worker, runId, "o2")).json;
    await complete(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: 1, op_id: "shared", outcome: "PASS" });
    const res = await complete(t.worker, runId, "o2", {
      lease_id: l2.lease_id,
      epoch: 1,
      op_id: "shared",
      outcome: "PASS",
    });
    expect(res.status).toBe(409);
  });

  it("backs a transient failure off 1 s / 4 s / 10 s through the alarm, then dead-letters it", async () => {
    const t = await teamTokens("done-d");
    const { runId, orderId, lease: first } = await leasedOrder(t.worker);
    let l = first;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await complete(t.worker, runId, orderId, {
        lease_id: l.lease_id,
        epoch: l.epoch,
        op_id: `op-${attempt}`,
        outcome: "ERROR",
        failure_class: "transient",
      });
      if (attempt === 4) {
        expect(res.json.next).toBe("dead_letter");
        expect(res.json.dead_letter_id).toMatch(/^dl_/);
        break;
      }
      expect(res.json.next).toBe("retry");
      delays.push(res.json.retry_after_ms);
      const state = await runState(runId);
      const notBefore = state.orders[orderId]?.not_before as number;
      expect(await scheduledAlarm(runId)).toBe(notBefore);
      // too early: 409
      expect((await lease(t.worker, runId, orderId)).status).toBe(409);
      await setClock(runId, notBefore);
      await fireAlarm(runId);
      expect((await runState(runId)).orders[orderId]?.status).toBe("QUEUED");
      l = (await lease(t.worker, runId, orderId)).json;
    }
    expect(delays).toEqual([1000, 4000, 10000]);
    expect((await reasonCodes(runId))[0]).toEqual({
      reason_code: "retries_exhausted:transient",
    });
  });
});

describe("the run alarm", () => {
  it("runs twice without changing anything the second time", async () => {
    const t = await teamTokens("alarm-a");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await setClock(runId, l.expires_at + 1);
    expect(await fireAlarm(runId)).toBe(true);
    const state = await runState(runId);
    const events = await eventLog(runId);
    const d1 = await recordRows(workOrders, eq(workOrders.runId, runId));

    // at-least-once delivery: the same alarm again, and the handler called directly
    // armed in the future so only runDurableObjectAlarm fires it
    await runInDurableObject(stubFor(runId), (_i: RunDO, s) => s.storage.setAlarm(Date.now() + 3_600_000));
    expect(await fireAlarm(runId)).toBe(true);
    await runInDurableObject(stubFor(runId), (instance: RunDO) => instance.alarm());

    expect(await runState(runId)).toEqual(state);
    expect(await eventLog(runId)).toEqual(events);
    expect(await recordRows(workOrders, eq(workOrders.runId, runId))).toEqual(d1);
    expect(state.orders[orderId]?.rescues).toBe(1);
  });

  it("stays armed for the earliest deadline across leases, heartbeats and back-offs", async () => {
    const t = await teamTokens("alarm-b");
    const run = await startRun(t.worker);
    await addOrder(t.worker, run.run_id, "a");
    await addOrder(t.worker, run.run_id, "b");
    const t0 = await setClock(run.run_id, Date.now() + 2 * 86_400_000);
    const a = (await lease(t.worker, run.run_id, "a")).json;
    await setClock(run.run_id, t0 + 5000);
    const b = (await lease(t.worker, run.run_id, "b")).json;
    expect(await scheduledAlarm(run.run_id)).toBe(t0 + LEASE_TTL_MS);
    await setClock(run.run_id, t0 + 10_000);
    await heartbeat(t.worker, run.run_id, "a", { lease_id: a.lease_id, epoch: a.epoch });
    expect(await scheduledAlarm(run.run_id)).toBe(t0 + 5000 + LEASE_TTL_MS);
    await complete(t.worker, run.run_id, "b", {
      lease_id: b.lease_id,
      epoch: b.epoch,
      op_id: "b1",
      outcome: "ERROR",
      failure_class: "rate_limit",
    });
    expect(await scheduledAlarm(run.run_id)).toBe(t0 + 10_000 + 1000);
    await complete(t.worker, run.run_id, "a", { lease_id: a.lease_id, epoch: a.epoch, op_id: "a1", outcome: "PASS" });
    expect(await scheduledAlarm(run.run_id)).toBe(t0 + 10_000 + 1000);
    await setClock(run.run_id, t0 + 11_000);
    await fireAlarm(run.run_id);
    expect(await scheduledAlarm(run.run_id)).toBeNull();
  });
});
