// Declared work graphs over HTTP: release on passed deps with their outputs, skips behind dead letters, bad graphs.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { runs, tableRows, workOrders } from "../../../test/node-d1/table-rows";
import { TEST_CLOCK_AHEAD_MS } from "../../../test/run-calls";
import { MAX_ITEMS_PER_RUN } from "./graph";
import { MAX_DEP_INLINE_BYTES } from "./items";

const h = await nodeHelpers();
const { call, complete, drain, lease, setClock, startRun, teamTokens } = h;
const recordRows = tableRows(h);
const teamRuns = (teamId: string) => recordRows(runs, eq(runs.teamId, teamId), { run_id: runs.runId });
const teamOrders = (teamId: string) =>
  recordRows(workOrders, eq(workOrders.teamId, teamId), { order_id: workOrders.orderId });

const item = (item_id: string, depends_on: string[] = [], extra: Record<string, unknown> = {}) => ({
  item_id,
  goal: `do ${item_id}`,
  input_json: { step: item_id },
  depends_on,
  output_schema_id: `${item_id}.v1`,
  timeout_sec: 45,
  ...extra,
});

type ItemRow = { item_id: string; state: string; depends_on: string[]; skipped_by?: string };
const view = async (tok: string, runId: string) => (await call("GET", `/v1/runs/${runId}`, { token: tok })).json;
const states = async (tok: string, runId: string) =>
  Object.fromEntries(((await view(tok, runId)).items as ItemRow[]).map((i) => [i.item_id, i.state]));

/** Leases the item's order and completes it with the outcome; returns the lease answer. */
async function work(tok: string, runId: string, itemId: string, outcome: Record<string, unknown>) {
  const l = await lease(tok, runId, itemId);
  expect(l.status, l.text).toBe(200);
  const done = await complete(tok, runId, itemId, {
    lease_id: l.json.lease_id,
    epoch: l.json.epoch,
    op_id: `op-${itemId}-${l.json.epoch}`,
    ...outcome,
  });
  expect(done.status, done.text).toBe(200);
  return { lease: l.json, done: done.json };
}
const pass = (output: unknown) => ({ outcome: "PASS", output, tokens_in: 10, tokens_out: 5 });

describe("declared work graphs", () => {
  it("releases a diamond as its deps pass, each order carrying its deps' outputs, and completes the run", async () => {
    const t = await teamTokens("graph-diamond");
    const run = await startRun(t.worker, {
      goal: "health dag",
      items: [item("a"), item("b", ["a"]), item("c", ["a"], { priority: 9 }), item("d", ["b", "c"])],
    });
    expect((run as unknown as { items: unknown }).items).toEqual([
      { item_id: "a", state: "ready" },
      { item_id: "b", state: "waiting" },
      { item_id: "c", state: "waiting" },
      { item_id: "d", state: "waiting" },
    ]);
    const waiting = await lease(t.worker, run.run_id, "b");
    expect(waiting.status).toBe(404);
    const a = await work(t.worker, run.run_id, "a", pass({ fields: 3 }));
    expect(a.lease.order).toMatchObject({
      goal: "do a",
      input_json: { step: "a" },
      output_schema_id: "a.v1",
      timeout_sec: 45,
    });
    expect(a.lease.budget).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(await states(t.worker, run.run_id)).toEqual({ a: "passed", b: "ready", c: "ready", d: "waiting" });
    const b = await work(t.worker, run.run_id, "b", pass({ ok: "b" }));
    expect(b.lease.order.input_json).toEqual({ step: "b", deps: { a: { fields: 3 } } });
    await work(t.worker, run.run_id, "c", pass("c-out"));
    const d = await work(t.worker, run.run_id, "d", pass(null));
    expect(d.lease.order.input_json.deps).toEqual({ b: { ok: "b" }, c: "c-out" });
    const v = await view(t.worker, run.run_id);
    expect(v.status).toBe("COMPLETE");
    expect((v.items as ItemRow[]).find((i) => i.item_id === "d")).toMatchObject({
      depends_on: ["b", "c"],
      state: "passed",
    });
  });

  it("skips the chain behind a dead letter, keeps the other branch and ends DEAD_LETTER naming both", async () => {
    const t = await teamTokens("graph-dead");
    const run = await startRun(t.worker, {
      goal: "chain",
      items: [item("a"), item("b", ["a"]), item("c", ["b"]), item("e")],
    });
    const a = await work(t.worker, run.run_id, "a", { outcome: "ERROR", failure_class: "wrong_value" });
    expect(a.done.next).toBe("dead_letter");
    expect(await states(t.worker, run.run_id)).toEqual({ a: "dead_letter", b: "skipped", c: "skipped", e: "ready" });
    expect((await lease(t.worker, run.run_id, "b")).status).toBe(404);
    expect((await view(t.worker, run.run_id)).status).not.toBe("DEAD_LETTER");
    await work(t.worker, run.run_id, "e", pass(1));
    const exit = (await call("GET", `/v1/runs/${run.run_id}/explain-exit`, { token: t.worker })).json;
    expect(exit.status).toBe("DEAD_LETTER");
    expect(exit.graph).toEqual({
      failed: ["a"],
      skipped: [
        { item_id: "b", because: "a" },
        { item_id: "c", because: "b" },
      ],
      cancelled: [],
    });
  });

  it("refuses a cycle with 400 naming it, and creates nothing", async () => {
    const t = await teamTokens("graph-cycle");
    const res = await call("POST", "/v1/runs", {
      token: t.worker,
      body: { goal: "loop", items: [item("a", ["b"]), item("b", ["c"]), item("c", ["a"])] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.message).toContain("a → b → c → a");
    expect(res.json.error.details.issues).toEqual([
      { path: "items[0].depends_on", message: "dependency cycle: a → b → c → a" },
    ]);
    expect(await teamRuns("graph-cycle")).toEqual([]);
  });

  it("names every failing path of a bad batch (unknown, self, duplicate, oversized input)", async () => {
    const t = await teamTokens("graph-bad");
    const res = await call("POST", "/v1/runs", {
      token: t.worker,
      body: {
        goal: "bad",
        items: [
          item("a", ["ghost"]),
          item("b", ["b"]),
          item("a"),
          item("big", [], { input_json: { x: "y".repeat(70_000) } }),
        ],
      },
    });
    expect(res.status).toBe(400);
    expect((res.json.error.details.issues as { path: string }[]).map((i) => i.path).sort()).toEqual(
      ["items[0].depends_on[0]", "items[1].depends_on[0]", "items[2].item_id", "items[3].input_json"].sort(),
    );
    expect(await teamRuns("graph-bad")).toEqual([]);
  });

  it("adds items to a live run that depend on finished ones, and refuses reused ids and other teams", async () => {
    const t = await teamTokens("graph-add");
    const other = await teamTokens("graph-add-other");
    const run = await startRun(t.worker, { goal: "replan", items: [item("a")] });
    await work(t.worker, run.run_id, "a", pass({ plan: 1 }));
    expect((await view(t.worker, run.run_id)).status).toBe("COMPLETE");
    const added = await call("POST", `/v1/runs/${run.run_id}/items`, {
      token: t.worker,
      body: { items: [item("b", ["a"]), item("c", ["b"])] },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.json.items).toEqual([
      { item_id: "b", state: "ready" },
      { item_id: "c", state: "waiting" },
    ]);
    expect((await view(t.worker, run.run_id)).status).toBe("RUNNING");
    const dup = await call("POST", `/v1/runs/${run.run_id}/items`, { token: t.worker, body: { items: [item("a")] } });
    expect(dup.status).toBe(400);
    expect(dup.json.error.details.issues).toEqual([
      { path: "items[0].item_id", message: "item id a already exists in the run" },
    ]);
    const foreign = await call("POST", `/v1/runs/${run.run_id}/items`, {
      token: other.worker,
      body: { items: [item("x")] },
    });
    expect(foreign.status).toBe(404);
    expect(Object.keys(await states(t.worker, run.run_id))).toEqual(["a", "b", "c"]);
  });

  it("refuses more than 500 items in a run, at creation or added later, with 400 naming the limit and nothing made", async () => {
    const t = await teamTokens("graph-cap");
    expect(MAX_ITEMS_PER_RUN).toBe(500);
    // one root and everything behind it: a full run releases a single order
    const fan = (from: number, n: number) => Array.from({ length: n }, (_, k) => item(`i${from + k}`, ["i0"]));
    const tooMany = await call("POST", "/v1/runs", {
      token: t.worker,
      body: { goal: "too big", items: [item("i0"), ...fan(1, 500)] },
    });
    expect(tooMany.status, tooMany.text).toBe(400);
    expect(tooMany.json.error.code).toBe("validation_failed");
    expect(tooMany.json.error.details.issues).toEqual([
      { path: "items", message: "a run holds at most 500 items (0 already, 501 more)" },
    ]);
    expect(await teamRuns("graph-cap")).toEqual([]);
    expect(await teamOrders("graph-cap")).toEqual([]);
    const full = await startRun(t.worker, { goal: "full", items: [item("i0"), ...fan(1, 499)] });
    const before = await view(t.worker, full.run_id);
    expect(before.items).toHaveLength(500);
    const past = await call("POST", `/v1/runs/${full.run_id}/items`, { token: t.worker, body: { items: fan(500, 2) } });
    expect(past.status, past.text).toBe(400);
    expect(past.json.error.code).toBe("validation_failed");
    expect(past.json.error.message).toContain("at most 500 items");
    expect(past.json.error.details.issues).toEqual([
      { path: "items", message: "a run holds at most 500 items (500 already, 2 more)" },
    ]);
    const after = await view(t.worker, full.run_id);
    expect(after.items).toHaveLength(500);
    expect(after.items.map((i: ItemRow) => i.item_id)).not.toContain("i500");
    expect(after.status).toBe(before.status);
    await drain(full.run_id);
    expect(await teamOrders("graph-cap")).toEqual([{ order_id: "i0" }]);
  });

  it("references a dependency's output over the bound instead of copying it", async () => {
    const t = await teamTokens("graph-ref");
    const run = await startRun(t.worker, { goal: "big", items: [item("a"), item("b", ["a"])] });
    const big = { blob: "z".repeat(MAX_DEP_INLINE_BYTES + 10) };
    await work(t.worker, run.run_id, "a", pass(big));
    const b = await lease(t.worker, run.run_id, "b");
    expect(b.json.order.input_json.deps.a).toEqual({
      ref: { run_id: run.run_id, item_id: "a", bytes: JSON.stringify(big).length },
    });
  });

  it("stop cancels what waits and what is ready, and nothing is leased after", async () => {
    const t = await teamTokens("graph-stop");
    const run = await startRun(t.worker, { goal: "stop me", items: [item("a"), item("b", ["a"]), item("c")] });
    await setClock(run.run_id, Date.now() + TEST_CLOCK_AHEAD_MS);
    const stopped = await call("POST", `/v1/runs/${run.run_id}/stop`, { token: t.worker, body: {} });
    expect(stopped.status).toBe(200);
    expect(await states(t.worker, run.run_id)).toEqual({ a: "cancelled", b: "cancelled", c: "cancelled" });
    expect((await lease(t.worker, run.run_id, "a")).status).toBe(409);
  });

  it("keeps a run without a graph as before: no items, orders posted by the client", async () => {
    const t = await teamTokens("graph-none");
    const run = await startRun(t.worker);
    const v = await view(t.worker, run.run_id);
    expect(v.items).toEqual([]);
    expect((run as unknown as { items?: unknown }).items).toBeUndefined();
  });
});
