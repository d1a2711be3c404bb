// RunEngine with in-memory storage and fake ports: hints and snapshot at start, outbox retries, restart with pending work.
import { describe, expect, it } from "vitest";
import { fakes, MemoryStorage } from "../../../test/fakes/run-engine";
import type { MemoryHint } from "../memory/hints-port";
import { type EngineDeps, fitForQueue, RunEngine } from "./engine";
import type { WardenRunEvent } from "./model";

const actor = { team_id: "t1", subject: "alice" };
const create = {
  op: "create" as const,
  actor,
  run_id: "run_e",
  goal: "triage the outage",
  template: null,
  skills: ["triage", "summarize"],
  budget: { input_tokens: 800, output_tokens: 200, total_tokens: null },
};

describe("RunEngine", () => {
  it("returns the hints the HintsProvider gives for the run's goal and skills", async () => {
    const hint: MemoryHint = {
      id: "m1",
      namespace: "team/t1/org/sop",
      class: "kb",
      text: "restart the cache first",
      score: 0.9,
    };
    const f = fakes({ hints: async () => [hint] });
    const engine = new RunEngine(new MemoryStorage(), f.deps, { now: () => 1000 });
    await engine.load();
    const reply = await engine.dispatch("run_e", create);
    expect(reply).toMatchObject({ ok: true, value: { run_id: "run_e", status: "PENDING", hints: [hint] } });
    expect(f.hintCalls).toEqual([["t1", { goal: "triage the outage", taskKeys: ["triage", "summarize"] }, 1000]]);
  });

  it("starts the run without hints when the provider fails, and with defaults when policy memory is unreadable", async () => {
    const f = fakes({
      hints: async () => {
        throw new Error("vector index down");
      },
      adjustments: async () => {
        throw new Error("D1 down");
      },
    });
    const engine = new RunEngine(new MemoryStorage(), f.deps, { now: () => 1000 });
    await engine.load();
    const { op: _op, ...request } = create;
    const reply = await engine.write("run_e", "create", request);
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    const value = reply.value;
    expect(value.hints).toEqual([]);
    expect(value.policy_snapshot.retry_adjustments).toEqual({});
    expect(value.policy_snapshot.warnings[0]).toMatch(/^DTL-STRAT-001/);
  });

  it("asks for failure hints on a failed attempt, returns them with the next step, and never waits long for them", async () => {
    const hint: MemoryHint = {
      id: "m9",
      namespace: "team/t1/org/runbook",
      class: "kb",
      text: "rate limits clear after a minute",
      score: 0.7,
    };
    let slow = false;
    const f = fakes({ failureHints: () => (slow ? new Promise(() => {}) : Promise.resolve([hint])) });
    const engine = new RunEngine(new MemoryStorage(), f.deps, { now: () => 1000 });
    await engine.load();
    await engine.dispatch("run_e", create);
    for (const id of ["o1", "o2"]) {
      await engine.dispatch("run_e", {
        op: "add_order",
        actor,
        order: {
          order_id: id,
          task_id: `task-${id}`,
          goal: "g",
          input_json: {},
          output_schema_id: "s",
          timeout_sec: 1,
        },
        skill: null,
      });
    }
    const l1 = await engine.write("run_e", "lease", { actor, order_id: "o1", worker_id: "w" });
    if (!l1.ok) throw new Error("lease refused");
    const done = {
      op: "complete" as const,
      actor,
      epoch: 1,
      outcome: "ERROR" as const,
      failure_class: "rate_limit",
      tokens_in: 0,
      tokens_out: 0,
      output: null,
    };
    const r1 = await engine.dispatch("run_e", { ...done, order_id: "o1", lease_id: l1.value.lease_id, op_id: "a" });
    expect(r1).toMatchObject({ ok: true, value: { next: "retry", hints: [hint] } });
    expect(f.hintCalls.at(-1)).toEqual([
      "t1",
      { reasonBucket: "rate_limit", taskKey: "task-o1", runId: "run_e" },
      1000,
    ]);

    slow = true;
    const l2 = await engine.write("run_e", "lease", { actor, order_id: "o2", worker_id: "w" });
    if (!l2.ok) throw new Error("lease refused");
    const started = Date.now();
    const r2 = await engine.dispatch("run_e", { ...done, order_id: "o2", lease_id: l2.value.lease_id, op_id: "b" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r2.ok && "hints" in r2.value).toBe(false);
  });

  it("keeps failed D1 writes and events in the outbox, retries them by alarm with back-off, and sends each event id once", async () => {
    const f = fakes();
    const storage = new MemoryStorage();
    let now = 10_000;
    const engine = new RunEngine(storage, f.deps, { now: () => now });
    await engine.load();
    expect((await engine.dispatch("run_e", create)).ok).toBe(true);
    const order = { order_id: "o1", task_id: "t", goal: "g", input_json: {}, output_schema_id: "s", timeout_sec: 1 };
    expect((await engine.dispatch("run_e", { op: "add_order", actor, order, skill: null })).ok).toBe(true);
    const lease = await engine.write("run_e", "lease", { actor, order_id: "o1", worker_id: "w" });
    if (!lease.ok) throw new Error("lease refused");
    await engine.idle();
    const before = f.written.length;
    // a completion: D1 rows (the attempt) and a queued event (task.completed); run trace events stay in the run's log
    f.control.failWrites = 2;
    const complete = {
      ...{ op: "complete" as const, actor, order_id: "o1", lease_id: lease.value.lease_id, epoch: 1, op_id: "c1" },
      ...{ outcome: "PASS" as const, failure_class: null, tokens_in: 1, tokens_out: 1, output: null },
    };
    expect((await engine.dispatch("run_e", complete)).ok).toBe(true);
    await engine.idle();
    expect([...storage.data.keys()].filter((k) => k.startsWith("out:"))).toHaveLength(1);
    expect(storage.alarm).toBe(now + 1000);

    now += 1000;
    await engine.alarm();
    await engine.idle();
    expect(storage.alarm).toBe(now + 2000);
    expect(f.written).toHaveLength(before);

    now += 2000;
    f.control.failPublish = 1;
    await engine.alarm();
    await engine.idle();
    expect(f.written).toHaveLength(before + 1);
    expect(f.published).toEqual([]);
    expect(storage.alarm).toBe(now + 4000); // third failure in a row

    now += 4000;
    await engine.alarm();
    await engine.idle();
    expect(f.published.flat().map((e) => e.type)).toEqual(["task.completed", "run.completed"]);
    expect(f.written).toHaveLength(before + 2); // rewritten: the D1 writes are idempotent
    expect([...storage.data.keys()].filter((k) => k.startsWith("out:"))).toEqual([]);
    expect(storage.alarm).toBeNull();
  });

  it("syncs a graph change to the board before it answers, even while D1 is down for an earlier outbox item", async () => {
    const f = fakes();
    const synced: { rows: { item_id: string; state: string }[] }[] = [];
    const board = { forTeam: () => ({ sync: async (_run: string, rows: never[]) => void synced.push({ rows }) }) };
    const engine = new RunEngine(new MemoryStorage(), { ...f.deps, board } as unknown as EngineDeps, {
      now: () => 10_000,
    });
    await engine.load();
    const item = (item_id: string, depends_on: string[], priority: number) => ({
      ...{ item_id, goal: "g", input_json: {}, depends_on, priority, output_schema_id: "s", timeout_sec: 30 },
    });
    const items = [item("x", [], 9), item("d", ["x"], 9), item("g", [], 5)];
    expect((await engine.dispatch("run_e", { ...create, items })).ok).toBe(true);
    await engine.idle();
    // D1 goes down: the lease's rows stay in the outbox, and every flush stops at them
    f.control.failWrites = 1_000;
    const lease = await engine.write("run_e", "lease", { actor, order_id: "x", worker_id: "w" });
    if (!lease.ok) throw new Error("lease refused");
    const complete = {
      ...{ op: "complete" as const, actor, order_id: "x", lease_id: lease.value.lease_id, epoch: 1, op_id: "c1" },
      ...{ outcome: "PASS" as const, failure_class: null, tokens_in: 1, tokens_out: 1, output: null },
    };
    expect((await engine.dispatch("run_e", complete)).ok).toBe(true);
    // answered: the board already holds d as ready (the next lease-next gets it, not g at priority 5)
    const last = new Map(synced.flatMap((s) => s.rows).map((r) => [r.item_id, r.state]));
    expect(Object.fromEntries(last)).toEqual({ x: "passed", d: "ready", g: "ready" });
  });

  it("re-sends the run's latest run.completed with its own event id, but not while its outbox item is unsent", async () => {
    const f = fakes();
    const engine = new RunEngine(new MemoryStorage(), f.deps, { now: () => 20_000 });
    await engine.load();
    expect((await engine.dispatch("run_e", create)).ok).toBe(true);
    const resend = () => engine.dispatch("run_e", { op: "resend_completion", actor });
    // not finished: nothing to send
    expect(await resend()).toEqual({ ok: true, value: { event_id: null, resent: false } });
    const order = { order_id: "o1", task_id: "t", goal: "g", input_json: {}, output_schema_id: "s", timeout_sec: 1 };
    await engine.dispatch("run_e", { op: "add_order", actor, order, skill: null });
    const lease = await engine.write("run_e", "lease", { actor, order_id: "o1", worker_id: "w" });
    if (!lease.ok) throw new Error("lease refused");
    await engine.idle();
    f.control.failPublish = 1;
    const done = { op: "complete" as const, actor, order_id: "o1", lease_id: lease.value.lease_id, epoch: 1 };
    await engine.dispatch("run_e", {
      ...done,
      ...{ op_id: "c1", outcome: "PASS" as const, failure_class: null, tokens_in: 1, tokens_out: 1, output: null },
    });
    await engine.idle();
    const completed = engine.snapshotState()?.run.completion_seq;
    expect(completed).toBeGreaterThan(0);
    // still in the outbox (the publish failed): the outbox sends it, the resend does not
    const pending = await resend();
    expect(pending).toEqual({ ok: true, value: { event_id: `evt_run_e_${completed}`, resent: false } });
    expect(f.published.flat().filter((e) => e.type === "run.completed")).toEqual([]);
    await engine.alarm();
    await engine.idle();
    expect((await resend()).ok).toBe(true);
    const sent = f.published.flat().filter((e) => e.type === "run.completed");
    expect(sent.map((e) => e.event_id)).toEqual([`evt_run_e_${completed}`, `evt_run_e_${completed}`]);
    expect(sent[1]).toEqual(sent[0]);
    // another team's actor learns nothing about the run
    const foreign = await engine.dispatch("run_e", { op: "resend_completion", actor: { ...actor, team_id: "t2" } });
    expect(foreign).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("picks up pending outbox items and timers after a restart over the same storage", async () => {
    const f = fakes();
    const storage = new MemoryStorage();
    const now = 50_000;
    const first = new RunEngine(storage, f.deps, { now: () => now });
    await first.load();
    await first.dispatch("run_e", create);
    await first.dispatch("run_e", {
      op: "add_order",
      actor,
      order: { order_id: "o1", task_id: "t", goal: "g", input_json: {}, output_schema_id: "s", timeout_sec: 1 },
      skill: null,
    });
    await first.idle(); // the earlier items are sent: the failed write is the lease's
    f.control.failWrites = 1;
    const leased = await first.dispatch("run_e", { op: "lease", actor, order_id: "o1", worker_id: "w" });
    expect(leased.ok).toBe(true);
    await first.idle();
    storage.alarm = null; // the restart lost the alarm too

    const second = new RunEngine(storage, f.deps, { now: () => now + 31_000 });
    await second.load();
    // re-armed at once for the earliest deadline: the lease expiry (the outbox retry is due later)
    expect(storage.alarm).toBe(now + 30_000);
    await second.alarm();
    await second.idle();
    expect(second.snapshotState()?.orders.o1).toMatchObject({ status: "QUEUED", rescues: 1 });
    expect([...storage.data.keys()].filter((k) => k.startsWith("out:"))).toEqual([]);
    const log = [...storage.data.entries()].filter(([k]) => k.startsWith("ev:")).map(([, e]) => e as WardenRunEvent);
    const types = log.map((e) => e.type);
    expect(types).toEqual(["run.started", "task.created", "run.running", "task.leased", "task.lease_expired"]);
    expect(new Set(log.map((e) => e.event_id)).size).toBe(types.length);
    expect(f.published.flat()).toEqual([]); // trace events never go to the queue
  });

  it("sends an event too large for a queue message as its envelope, marked truncated", () => {
    const base = {
      event_id: "evt_r_1",
      type: "run.completed" as const,
      team_id: "t",
      run_id: "r",
      seq: 1,
      occurred_at: 5,
    };
    expect(fitForQueue({ ...base, small: "x" })).toEqual({ ...base, small: "x" });
    expect(fitForQueue({ ...base, big: "x".repeat(200_000) })).toEqual({ ...base, truncated: true });
  });
});
