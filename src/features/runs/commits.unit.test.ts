// The run object's storage commits: an operation's entities, events, outbox item and alarm go out as one batch, and
// a flush removes every item it sent with one delete (each separate write is a commit, a disk sync when run locally).
import { describe, expect, it } from "vitest";
import { fakes, MemoryStorage } from "../../../test/fakes/run-engine";
import { RunEngine } from "./engine";

/** MemoryStorage that notes each write with the synchronous turn it was issued in (same turn = same commit). */
class CommitLog extends MemoryStorage {
  calls: { call: string; turn: number; keys?: string[] }[] = [];
  private turn = 0;
  private closing = false;
  private note(call: string, keys?: string[]) {
    if (!this.closing) {
      this.closing = true;
      queueMicrotask(() => {
        this.turn++;
        this.closing = false;
      });
    }
    this.calls.push({ call, turn: this.turn, ...(keys ? { keys } : {}) });
  }
  override put(entries: Record<string, unknown>) {
    this.note("put", Object.keys(entries));
    return super.put(entries);
  }
  override delete(keys: string[]) {
    this.note("delete", keys);
    return super.delete(keys);
  }
  override setAlarm(t: number) {
    this.note("setAlarm");
    return super.setAlarm(t);
  }
  override deleteAlarm() {
    this.note("deleteAlarm");
    return super.deleteAlarm();
  }
}

const actor = { team_id: "t1", subject: "worker" };
const order = { order_id: "o1", task_id: "t", goal: "g", input_json: {}, output_schema_id: "s", timeout_sec: 30 };

/** Completes order o1 with a PASS under the lease it holds. */
const completePass = (engine: RunEngine, lease: { lease_id: string; epoch: number }) =>
  engine.write("run_a", "complete", {
    actor,
    order_id: "o1",
    lease_id: lease.lease_id,
    epoch: lease.epoch,
    op_id: "c1",
    outcome: "PASS",
    failure_class: null,
    tokens_in: 1,
    tokens_out: 1,
    output: null,
  });

async function runWithOrder() {
  const f = fakes();
  const storage = new CommitLog();
  const engine = new RunEngine(storage, f.deps, { now: () => 10_000 });
  await engine.load();
  const budget = { input_tokens: 800, output_tokens: 200, total_tokens: null };
  await engine.dispatch("run_a", {
    op: "create",
    actor,
    run_id: "run_a",
    goal: "g",
    template: null,
    skills: [],
    budget,
  });
  await engine.dispatch("run_a", { op: "add_order", actor, order, skill: null });
  await engine.idle();
  storage.calls = [];
  return { f, storage, engine };
}

describe("RunEngine storage commits", () => {
  it("writes a lease's order, event, outbox item and new alarm in one batch, then forgets the sent item in one delete", async () => {
    const { storage, engine } = await runWithOrder();
    const lease = await engine.write("run_a", "lease", { actor, order_id: "o1", worker_id: "w" });
    expect(lease.ok).toBe(true);
    await engine.idle();
    const [first, ...rest] = storage.calls;
    const batch = storage.calls.filter((c) => c.turn === first?.turn);
    expect(batch.map((c) => c.call).sort()).toEqual(["put", "setAlarm"]);
    expect(batch.find((c) => c.call === "put")?.keys).toEqual(expect.arrayContaining(["o:o1", "out:000000000002"]));
    expect(storage.alarm).toBe(10_000 + 30_000); // the lease expiry
    // after the batch: only the flush's one delete of the item it sent
    expect(rest.filter((c) => c.turn !== first?.turn)).toEqual([
      { call: "delete", turn: expect.any(Number), keys: ["out:000000000002"] },
    ]);
  });

  it("a heartbeat moving the lease expiry is one batch with its alarm, and nothing else", async () => {
    const { storage, engine } = await runWithOrder();
    let now = 10_000;
    engine.clock = { now: () => now };
    const lease = await engine.write("run_a", "lease", { actor, order_id: "o1", worker_id: "w" });
    if (!lease.ok) throw new Error("lease refused");
    await engine.idle();
    storage.calls = [];
    now = 15_000;
    const beat = await engine.write("run_a", "heartbeat", {
      actor,
      order_id: "o1",
      lease_id: lease.value.lease_id,
      epoch: lease.value.epoch,
    });
    expect(beat.ok).toBe(true);
    await engine.idle();
    expect(new Set(storage.calls.map((c) => c.turn)).size).toBe(1);
    expect(storage.calls.map((c) => c.call).sort()).toEqual(["put", "setAlarm"]);
    expect(storage.alarm).toBe(15_000 + 30_000);
  });

  it("a flush that sends several pending items removes them all with one delete", async () => {
    const { f, storage, engine } = await runWithOrder();
    f.control.failWrites = 1; // the lease's record write fails: its item stays in the outbox
    const lease = await engine.write("run_a", "lease", { actor, order_id: "o1", worker_id: "w" });
    if (!lease.ok) throw new Error("lease refused");
    await engine.idle();
    expect([...storage.data.keys()].filter((k) => k.startsWith("out:"))).toHaveLength(1);
    storage.calls = [];
    const done = await completePass(engine, lease.value);
    expect(done.ok).toBe(true);
    await engine.idle();
    const deletes = storage.calls.filter((c) => c.call === "delete" && c.keys?.some((k) => k.startsWith("out:")));
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.keys).toHaveLength(2);
    expect([...storage.data.keys()].filter((k) => k.startsWith("out:"))).toEqual([]);
    // the failed flush's retry alarm stayed armed as it was, and went once both items were sent
    expect(storage.calls.filter((c) => c.call.endsWith("Alarm")).map((c) => c.call)).toEqual(["deleteAlarm"]);
    expect(storage.alarm).toBeNull();
  });

  it("an item written with no timer left gets the safety alarm in its batch, removed once the item is sent", async () => {
    const { storage, engine } = await runWithOrder();
    const lease = await engine.write("run_a", "lease", { actor, order_id: "o1", worker_id: "w" });
    if (!lease.ok) throw new Error("lease refused");
    await engine.idle();
    storage.calls = [];
    const done = await completePass(engine, lease.value);
    expect(done.ok).toBe(true);
    const batchTurn = storage.calls[0]?.turn;
    expect(storage.calls.filter((c) => c.turn === batchTurn).map((c) => c.call)).toContain("setAlarm");
    expect(storage.alarm).toBe(10_000 + 5_000);
    await engine.idle();
    expect(storage.calls.filter((c) => c.call.endsWith("Alarm")).map((c) => c.call)).toEqual([
      "setAlarm",
      "deleteAlarm",
    ]);
    expect(storage.alarm).toBeNull();
  });
});
