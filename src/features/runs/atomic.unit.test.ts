// The run object's faults: a storage write failing mid-operation leaves memory, storage and D1 as they were; ids named
// like Object.prototype members ("__proto__", "constructor", "toString") are ordinary ids, also after a reload.
import { describe, expect, it } from "vitest";
import { fakes, MemoryStorage } from "../../../test/fakes/run-engine";
import { RunEngine } from "./engine";

const actor = { team_id: "t1", subject: "worker" };
const create = {
  op: "create" as const,
  actor,
  run_id: "run_a",
  goal: "triage the outage",
  template: null,
  skills: [],
  budget: { input_tokens: 800, output_tokens: 200, total_tokens: null },
};
const order = (order_id: string) => ({
  order_id,
  task_id: "t",
  goal: "g",
  input_json: { n: 1 },
  output_schema_id: "s",
  timeout_sec: 30,
});
const completion = (order_id: string, lease_id: string, op_id: string) => ({
  op: "complete" as const,
  actor,
  order_id,
  lease_id,
  epoch: 1,
  op_id,
  outcome: "PASS" as const,
  failure_class: null,
  tokens_in: 1,
  tokens_out: 1,
  output: { done: true },
});

async function leasedEngine(orderId = "o1") {
  const f = fakes();
  const storage = new MemoryStorage();
  const engine = new RunEngine(storage, f.deps, { now: () => 10_000 });
  await engine.load();
  expect((await engine.dispatch("run_a", create)).ok).toBe(true);
  expect((await engine.dispatch("run_a", { op: "add_order", actor, order: order(orderId), skill: null })).ok).toBe(
    true,
  );
  const lease = await engine.write("run_a", "lease", { actor, order_id: orderId, worker_id: "w" });
  if (!lease.ok) throw new Error(`lease refused: ${JSON.stringify(lease.error)}`);
  await engine.idle();
  return { f, storage, engine, leaseId: lease.value.lease_id };
}

describe("RunEngine atomicity", () => {
  it("leaves memory, storage and the outbox untouched when the storage write fails mid-operation", async () => {
    const { f, storage, engine, leaseId } = await leasedEngine();
    const stateBefore = structuredClone(engine.snapshotState());
    const storedBefore = structuredClone([...storage.data.entries()]);
    const writtenBefore = f.written.length;
    storage.failPuts = 1;
    await expect(engine.dispatch("run_a", completion("o1", leaseId, "c1"))).rejects.toThrow("storage unavailable");
    await engine.idle();
    expect(engine.snapshotState()).toEqual(stateBefore);
    expect([...storage.data.entries()]).toEqual(storedBefore);
    expect(f.written).toHaveLength(writtenBefore); // nothing reached D1

    // the same completion then goes through once, and a reload sees exactly what memory holds
    const done = await engine.dispatch("run_a", completion("o1", leaseId, "c1"));
    expect(done.ok).toBe(true);
    await engine.idle();
    const reloaded = new RunEngine(storage, f.deps, { now: () => 20_000 });
    await reloaded.load();
    expect(reloaded.snapshotState()?.orders.o1?.status).toBe("COMPLETE");
    expect(reloaded.snapshotState()).toEqual(engine.snapshotState());
    const again = await reloaded.write("run_a", "lease", { actor, order_id: "o1", worker_id: "w2" });
    expect(again.ok).toBe(false); // completed work never comes back
  });

  it("serializes concurrent writes so none is lost", async () => {
    const f = fakes();
    const storage = new MemoryStorage();
    const engine = new RunEngine(storage, f.deps, { now: () => 10_000 });
    await engine.load();
    await engine.dispatch("run_a", create);
    const ids = Array.from({ length: 20 }, (_, i) => `o${i}`);
    const results = await Promise.all(
      ids.map((id) => engine.dispatch("run_a", { op: "add_order", actor, order: order(id), skill: null })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const reloaded = new RunEngine(storage, f.deps, { now: () => 10_000 });
    await reloaded.load();
    expect(Object.keys(reloaded.snapshotState()?.orders ?? {}).sort()).toEqual([...ids].sort());
  });
});

describe("RunEngine ids", () => {
  for (const id of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
    it(`treats ${id} as an ordinary order and op id, also after a reload`, async () => {
      const { f, storage, engine, leaseId } = await leasedEngine(id);
      const state = engine.snapshotState();
      expect(Object.hasOwn(state?.orders ?? {}, id)).toBe(true);
      expect(Object.getPrototypeOf(state?.orders)).toBe(Object.prototype);
      const done = await engine.dispatch("run_a", completion(id, leaseId, id));
      expect(done.ok).toBe(true);
      const view = await engine.dispatch("run_a", { op: "view", actor });
      expect(view.ok).toBe(true);
      const reloaded = new RunEngine(storage, f.deps, { now: () => 10_000 });
      await reloaded.load();
      const orders = reloaded.snapshotState()?.orders ?? {};
      expect(Object.getPrototypeOf(orders)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(orders, id)?.value?.status).toBe("COMPLETE");
      expect(Object.hasOwn(reloaded.snapshotState()?.ops ?? {}, id)).toBe(true);
      const missing = await reloaded.dispatch("run_a", { op: "get_gate", actor, gate_id: id });
      expect(missing.ok).toBe(false);
    });
  }
});
