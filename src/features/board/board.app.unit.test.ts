// The team's work board over HTTP: persona caps across runs, priority then fair share, backpressure, board views.
import { describe, expect, it } from "vitest";
import { item } from "../../../test/board-items";
import { runInDurableObject } from "../../../test/fakes/durable-objects";
import { nodeHelpers } from "../../../test/node-d1/app";
import { BoardStore } from "./board-store";

const { addOrder, call, deps, drainAll, objects, token } = await nodeHelpers();

async function tokens(team: string) {
  return {
    admin: await token(team, undefined, { sub: `admin-${team}` }),
    worker: await token(team, undefined, { sub: `worker-${team}` }),
    extractor: await token(team, undefined, { sub: `ext-${team}`, personaId: "extractor" }),
  };
}
/** a run over HTTP, its object on the wall clock (the board and the run compare back-offs on one clock) */
async function graphRun(tok: string, items: unknown[]) {
  const res = await call("POST", "/v1/runs", { token: tok, body: { goal: "board test", items } });
  expect(res.status, res.text).toBe(201);
  return res.json.run_id as string;
}
const leaseNext = (tok: string, body: Record<string, unknown> = { worker_id: "w" }) =>
  call("POST", "/v1/orders/lease-next", { token: tok, body });
async function pass(tok: string, l: { run_id: string; order_id: string; lease_id: string; epoch: number }, tokens = 0) {
  const res = await call("POST", `/v1/runs/${l.run_id}/orders/${l.order_id}/complete`, {
    token: tok,
    body: {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: `op-${l.order_id}-${l.epoch}`,
      outcome: "PASS",
      tokens_in: tokens,
    },
  });
  expect(res.status, res.text).toBe(200);
}

describe("work board", () => {
  it("holds a persona to its concurrency_limit across runs, and only that persona leases its items", async () => {
    const t = await tokens("board-persona");
    const put = await call("PUT", "/v1/personas/extractor", {
      token: t.admin,
      body: { name: "Extractor", role: "extract", concurrency_limit: 1, enabled: true },
    });
    expect(put.status, put.text).toBe(200);
    const r1 = await graphRun(t.worker, [
      item("x1", { persona_id: "extractor" }),
      item("x2", { persona_id: "extractor" }),
    ]);
    const r2 = await graphRun(t.worker, [item("y1", { persona_id: "extractor" })]);
    expect((await leaseNext(t.worker)).status).toBe(204);
    const direct = await call("POST", `/v1/runs/${r1}/orders/x1/lease`, {
      token: t.extractor,
      body: { worker_id: "w" },
    });
    expect(direct.status).toBe(409);
    const first = await leaseNext(t.extractor);
    expect(first.status, first.text).toBe(200);
    expect(first.json.order).toMatchObject({ goal: expect.stringMatching(/^do /), output_schema_id: "out.v1" });
    const capped = await leaseNext(t.extractor);
    expect(capped.status).toBe(204);
    expect(capped.headers.get("retry-after")).not.toBeNull();
    const personas = await call("GET", "/v1/personas", { token: t.worker });
    expect(personas.json.personas).toEqual([
      expect.objectContaining({ persona_id: "extractor", concurrency_limit: 1, leased: 1, ready: 2, registered: true }),
    ]);
    await pass(t.extractor, first.json);
    const second = await leaseNext(t.extractor);
    expect(second.status, second.text).toBe(200);
    expect(new Set([first.json.run_id, second.json.run_id])).toEqual(new Set([r1, r2]));
  });

  it("hands out higher priority first, then shares leases fairly across runs of one priority", async () => {
    const t = await tokens("board-fair");
    const low = await graphRun(t.worker, [item("l1", { priority: 1 })]);
    const runs = [
      await graphRun(
        t.worker,
        [1, 2, 3, 4].map((i) => item(`a${i}`)),
      ),
      await graphRun(
        t.worker,
        [1, 2, 3, 4].map((i) => item(`b${i}`)),
      ),
      await graphRun(
        t.worker,
        [1, 2, 3, 4].map((i) => item(`c${i}`)),
      ),
    ];
    const got: string[] = [];
    for (let i = 0; i < 12; i++) {
      const l = await leaseNext(t.worker);
      expect(l.status, l.text).toBe(200);
      got.push(l.json.run_id);
    }
    for (let w = 0; w < 12; w += 3) expect(new Set(got.slice(w, w + 3))).toEqual(new Set(runs));
    const last = await leaseNext(t.worker);
    expect(last.json.run_id).toBe(low);
  });

  it("never hands one item to two workers, and shares concurrent leases fairly across runs", async () => {
    const t = await tokens("board-concurrent");
    const runs = [
      await graphRun(
        t.worker,
        [1, 2, 3].map((i) => item(`a${i}`)),
      ),
      await graphRun(
        t.worker,
        [1, 2, 3].map((i) => item(`b${i}`)),
      ),
      await graphRun(
        t.worker,
        [1, 2, 3].map((i) => item(`c${i}`)),
      ),
    ];
    const first = await Promise.all(Array.from({ length: 6 }, (_, w) => leaseNext(t.worker, { worker_id: `w${w}` })));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // in flight together: the reservations count toward each run's share, so every run gets two
    const perRun = runs.map((r) => first.filter((l) => l.json.run_id === r).length);
    expect(perRun).toEqual([2, 2, 2]);
    const rest = await Promise.all(Array.from({ length: 6 }, (_, w) => leaseNext(t.worker, { worker_id: `x${w}` })));
    const got = [...first, ...rest].filter((l) => l.status === 200).map((l) => `${l.json.run_id}:${l.json.order_id}`);
    expect(got).toHaveLength(9);
    expect(new Set(got).size).toBe(9);
  });

  it("releases a dependent the moment its dependency passes: the next lease-next gets it with deps", async () => {
    const t = await tokens("board-release");
    const run = await graphRun(t.worker, [item("a"), item("b", { depends_on: ["a"] })]);
    const a = await leaseNext(t.worker);
    expect(a.json.order_id).toBe("a");
    expect((await leaseNext(t.worker)).status).toBe(204);
    const done = await call("POST", `/v1/runs/${run}/orders/a/complete`, {
      token: t.worker,
      body: { lease_id: a.json.lease_id, epoch: 1, op_id: "op-a", outcome: "PASS", output: { v: 1 } },
    });
    expect(done.status).toBe(200);
    const b = await leaseNext(t.worker);
    expect(b.status, b.text).toBe(200);
    expect(b.json).toMatchObject({ run_id: run, order_id: "b", order: { input_json: { deps: { a: { v: 1 } } } } });
  });

  it("hands out a just-released priority-9 dependent before older priority-5 items, across runs and personas", async () => {
    const t = await tokens("board-release-priority");
    const cpu = await token("board-release-priority", undefined, { sub: "cpu-worker", personaId: "cpu" });
    const other = await graphRun(
      t.worker,
      [1, 2, 3].map((i) => item(`f${i}`, { persona_id: "cpu" })),
    );
    const run = await graphRun(t.worker, [
      item("x", { priority: 9, persona_id: "extractor" }),
      item("d", { priority: 9, persona_id: "cpu", depends_on: ["x"] }),
      item("g", { priority: 5, persona_id: "cpu" }),
    ]);
    for (let round = 0; round < 2; round++) {
      const first = await leaseNext(cpu, { worker_id: `c${round}` });
      expect(first.json).toMatchObject({ run_id: round === 0 ? other : run });
      await pass(cpu, first.json);
    }
    const x = await leaseNext(t.extractor);
    expect(x.json.order_id).toBe("x");
    await pass(t.extractor, x.json);
    // at once: d is the only priority-9 item ready; the fair share (other has fewer leases) comes after priority
    const next = await leaseNext(cpu, { worker_id: "c9" });
    expect(next.status, next.text).toBe(200);
    expect(next.json).toMatchObject({ run_id: run, order_id: "d" });
  });

  it("answers 429 backpressure over max_ready and creates nothing; shows it on the board", async () => {
    const t = await tokens("board-pressure");
    const set = await call("PUT", "/v1/board/settings", { token: t.admin, body: { max_ready: 2 } });
    expect(set.status, set.text).toBe(200);
    const run = await graphRun(t.worker, [item("a"), item("b")]);
    const refused = await call("POST", "/v1/runs", { token: t.worker, body: { goal: "more", items: [item("c")] } });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("backpressure");
    expect(refused.headers.get("retry-after")).toBe("5");
    const more = await call("POST", `/v1/runs/${run}/items`, { token: t.worker, body: { items: [item("d")] } });
    expect(more.status).toBe(429);
    await drainAll();
    expect((await call("GET", "/v1/runs", { token: t.worker })).json.runs).toHaveLength(1);
    const board = await call("GET", "/v1/board", { token: t.worker });
    expect(board.json).toMatchObject({ ready: 2, leased: 0, waiting: 0, backpressure: { on: true, ready_over: true } });
    expect(board.json.oldest_ready).toMatchObject({ run_id: run });
    const plain = await call("POST", "/v1/runs", { token: t.worker, body: { goal: "no graph" } });
    expect(plain.status).toBe(201);
  });

  it("makes new leases wait over max_tokens_per_hour", async () => {
    const t = await tokens("board-tokens");
    await call("PUT", "/v1/board/settings", { token: t.admin, body: { max_tokens_per_hour: 100 } });
    await graphRun(t.worker, [item("a"), item("b")]);
    const a = await leaseNext(t.worker);
    await pass(t.worker, a.json, 150);
    const waiting = await leaseNext(t.worker);
    expect(waiting.status).toBe(204);
    const board = await call("GET", "/v1/board", { token: t.worker });
    expect(board.json.backpressure).toMatchObject({ on: true, tokens_over: true, tokens_last_hour: 150 });
  });

  it("keeps a disabled persona's items waiting, and another team sees none of this board", async () => {
    const t = await tokens("board-disabled");
    const other = await tokens("board-disabled-other");
    await call("PUT", "/v1/personas/extractor", {
      token: t.admin,
      body: { name: "Extractor", concurrency_limit: 3, enabled: false },
    });
    await graphRun(t.worker, [item("x", { persona_id: "extractor" })]);
    expect((await leaseNext(t.extractor)).status).toBe(204);
    expect((await leaseNext(other.extractor)).status).toBe(204);
    expect((await call("GET", "/v1/personas", { token: other.worker })).json.personas).toEqual([]);
    expect((await call("GET", "/v1/board", { token: other.worker })).json.ready).toBe(0);
    const noAdmin = await call("PUT", "/v1/personas/x", {
      token: await token("board-disabled", ["runs:write"]),
      body: { name: "x", concurrency_limit: 1 },
    });
    expect(noAdmin.status).toBe(403);
  });

  it("never lets lease-next's D1 fallback lease a graph item the board holds back; plain orders still come from D1", async () => {
    const team = "board-fallback";
    const t = await tokens(team);
    // the graph item is older in the index than the plain order, so a fallback that took graph items would pick it
    const graph = await graphRun(t.worker, [item("g1")]);
    const plain = await call("POST", "/v1/runs", { token: t.worker, body: { goal: "plain orders" } });
    expect(plain.status, plain.text).toBe(201);
    await addOrder(t.worker, plain.json.run_id, "p1");
    await drainAll();
    const indexed = await deps.runIndex.availableOrders(team, { limit: 10 });
    expect(indexed.map((r) => r.order_id)).toEqual(["g1", "p1"]);
    // another worker's board lease of g1 is in flight: the board reserved it, the run has not granted it yet
    const board = objects.BOARD.get(objects.BOARD.idFromName(`board:${team}`));
    const reserved = await runInDurableObject(board, (_i, state) => {
      // the board's own store over the object's storage, as the board reserves an item before asking its run
      const store = new BoardStore(state.storage.sql);
      return {
        reserved: store.reserve(graph, "g1"),
        candidates: store.candidates().filter((c) => c.run_id === graph),
        states: store.counts().map(({ state: s, n }) => ({ state: s, n })),
      };
    });
    // reserve's guarded update took g1 (ready, unreserved → leased, reserved); nothing of the run is left to offer
    expect(reserved).toEqual({ reserved: true, candidates: [], states: [{ state: "leased", n: 1 }] });
    const first = await leaseNext(t.worker);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ run_id: plain.json.run_id, order_id: "p1" });
    expect((await leaseNext(t.worker)).status).toBe(204);
    const view = await call("GET", `/v1/runs/${graph}`, { token: t.worker });
    expect(view.json.items).toEqual([expect.objectContaining({ item_id: "g1", state: "ready" })]);
  });
});
