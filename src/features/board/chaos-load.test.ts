// Chaos (seed 003 §15: a worker goes silent mid-lease) and load (50 runs × 8 items, 10 workers) through lease-next.
import { describe, expect, it } from "vitest";
import { call, token } from "../../../test/helpers";
import { eventually } from "../../../test/learning";
import { eventLog, fireAlarm, rows, setClock } from "../../../test/run-helpers";
import { workItem } from "../../../test/work-item";
import { LEASE_TTL_MS } from "../runs/model";

const item = workItem;
const leaseNext = (tok: string, worker_id: string) =>
  call("POST", "/v1/orders/lease-next", { token: tok, body: { worker_id } });
const completeBody = (l: { lease_id: string; epoch: number }, op_id: string) => ({
  lease_id: l.lease_id,
  epoch: l.epoch,
  op_id,
  outcome: "PASS",
  tokens_in: 3,
  output: { ok: true },
});

describe("board chaos and load", () => {
  it("rescues a silent worker's lease after its TTL, re-issues it at epoch + 1, refuses the old completion, learns once", async () => {
    // one worker pool identity, two worker processes: the silent one's completion must fail on its epoch
    const silent = await token("chaos-a", undefined, { sub: "pool" });
    const live = await token("chaos-a", undefined, { sub: "pool" });
    const res = await call("POST", "/v1/runs", {
      token: live,
      body: { goal: "chaos", items: [item("a", [], { skill: "chaos.extract" })] },
    });
    const runId = res.json.run_id as string;
    const first = await leaseNext(silent, "w-silent");
    expect(first.json).toMatchObject({ run_id: runId, order_id: "a", epoch: 1 });
    expect((await leaseNext(live, "w-live")).status).toBe(204);
    // no heartbeat: the run's clock passes the TTL and its alarm rescues the lease
    await setClock(runId, Date.now() + LEASE_TTL_MS + 1000);
    await fireAlarm(runId);
    const second = await leaseNext(live, "w-live");
    expect(second.status, second.text).toBe(200);
    expect(second.json).toMatchObject({ run_id: runId, order_id: "a", epoch: 2 });
    const late = await call("POST", `/v1/runs/${runId}/orders/a/complete`, {
      token: silent,
      body: completeBody(first.json, "op-silent"),
    });
    expect(late.status).toBe(409);
    const done = await call("POST", `/v1/runs/${runId}/orders/a/complete`, {
      token: live,
      body: completeBody(second.json, "op-live"),
    });
    expect(done.status, done.text).toBe(200);
    expect(done.json.next).toBe("complete");
    const events = await eventLog(runId);
    expect(events.filter((e) => e.type === "task.lease_expired")).toHaveLength(1);
    expect(events.filter((e) => e.type === "task.completed")).toHaveLength(1);
    const attempts = await rows<{ op_id: string }>("SELECT op_id FROM attempt WHERE run_id = ?", runId);
    expect(attempts.map((a) => a.op_id)).toEqual(["op-live"]);
    const run = await call("GET", `/v1/runs/${runId}`, { token: live });
    expect(run.json.status).toBe("COMPLETE");
    // learned once: one success for the item's skill, one ledger change for the run, though two leases were granted
    const memory = await eventually(async () => {
      const res = await call("GET", "/v1/policy-memory", { token: live });
      return res.json.entries.length > 0 ? res.json : undefined;
    });
    expect(
      memory.entries.map((e: { skill_name: string; success_count: number; failure_count: number }) => [
        e.skill_name,
        e.success_count,
        e.failure_count,
      ]),
    ).toEqual([["chaos.extract", 1, 0]]);
    const ledger = await rows<{ skill_name: string }>(
      "SELECT skill_name FROM policy_memory_ledger WHERE team_id = ? AND run_id = ?",
      "chaos-a",
      runId,
    );
    expect(ledger).toEqual([{ skill_name: "chaos.extract" }]);
  });

  it("runs 50 runs × 8 items with 10 workers pulling lease-next: all complete, no lease expires, nothing twice", async () => {
    const tok = await token("load-a", undefined, { sub: "load-worker" });
    // per run: a → (b, c, d) → e → (f, g) → h
    const graph = [
      item("a"),
      item("b", ["a"]),
      item("c", ["a"]),
      item("d", ["a"]),
      item("e", ["b", "c", "d"]),
      item("f", ["e"]),
      item("g", ["e"]),
      item("h", ["f", "g"]),
    ];
    const runIds: string[] = [];
    for (let r = 0; r < 50; r++) {
      const res = await call("POST", "/v1/runs", { token: tok, body: { goal: `load ${r}`, items: graph } });
      expect(res.status, res.text).toBe(201);
      runIds.push(res.json.run_id);
    }
    const done: string[] = [];
    const worker = async (w: number) => {
      // a token per worker: each spends its own per-subject rate bucket, as a fleet does
      const tok = await token("load-a", undefined, { sub: `load-worker-${w}` });
      let idle = 0;
      while (done.length < 400 && idle < 200) {
        const l = await leaseNext(tok, `w${w}`);
        if (l.status === 204) {
          idle++;
          await new Promise((r) => setTimeout(r, 25));
          continue;
        }
        expect(l.status, l.text).toBe(200);
        idle = 0;
        const c = await call("POST", `/v1/runs/${l.json.run_id}/orders/${l.json.order_id}/complete`, {
          token: tok,
          body: completeBody(l.json, `op-${l.json.run_id}-${l.json.order_id}`),
        });
        expect(c.status, c.text).toBe(200);
        done.push(`${l.json.run_id}:${l.json.order_id}`);
      }
    };
    await Promise.all(Array.from({ length: 10 }, (_, w) => worker(w)));
    expect(done).toHaveLength(400);
    expect(new Set(done).size).toBe(400);
    const statuses = await rows<{ status: string; n: number }>(
      "SELECT status, COUNT(*) AS n FROM runs WHERE team_id = ? GROUP BY status",
      "load-a",
    );
    expect(statuses).toEqual([{ status: "COMPLETE", n: 50 }]);
    const attempts = await rows<{ n: number; failed: number }>(
      "SELECT COUNT(*) AS n, SUM(a.outcome != 'PASS') AS failed FROM attempt a JOIN runs r ON r.run_id = a.run_id WHERE r.team_id = ?",
      "load-a",
    );
    expect(attempts).toEqual([{ n: 400, failed: 0 }]);
    let expired = 0;
    for (const runId of runIds)
      expired += (await eventLog(runId)).filter((e) => e.type === "task.lease_expired").length;
    expect(expired).toBe(0);
  });
});
