// A reviewed dead letter of a graph item, reissued: back to ready through the board (persona cap, priority), and the
// items it had skipped back to waiting, released once the retry passes.
import { describe, expect, it } from "vitest";
import { item } from "../../../test/board-items";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call, token } = await nodeHelpers();

async function tokens(team: string) {
  return {
    admin: await token(team, undefined, { sub: `admin-${team}` }),
    worker: await token(team, undefined, { sub: `worker-${team}` }),
    approver: await token(team, undefined, { sub: `approver-${team}` }),
    extractor: await token(team, undefined, { sub: `ext-${team}`, personaId: "extractor" }),
  };
}
type Lease = { run_id: string; order_id: string; lease_id: string; epoch: number };
const leaseNext = (tok: string, worker_id = "w") =>
  call("POST", "/v1/orders/lease-next", { token: tok, body: { worker_id } });
async function leased(tok: string, orderId: string): Promise<Lease> {
  const l = await leaseNext(tok);
  expect(l.status, l.text).toBe(200);
  expect(l.json.order_id).toBe(orderId);
  return l.json;
}
async function complete(tok: string, l: Lease, body: Record<string, unknown>) {
  const res = await call("POST", `/v1/runs/${l.run_id}/orders/${l.order_id}/complete`, {
    token: tok,
    body: { lease_id: l.lease_id, epoch: l.epoch, op_id: `op-${l.order_id}-${l.epoch}`, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.json;
}
async function itemStates(tok: string, runId: string): Promise<Record<string, string>> {
  const view = await call("GET", `/v1/runs/${runId}`, { token: tok });
  expect(view.status, view.text).toBe(200);
  return Object.fromEntries(view.json.items.map((i: { item_id: string; state: string }) => [i.item_id, i.state]));
}

/** x1 (extractor, first) dead-lettered as wrong_value, its chain p1 → p2 skipped, x2 (extractor) leased. */
async function deadLetteredBesideALease(team: string) {
  const t = await tokens(team);
  const put = await call("PUT", "/v1/personas/extractor", {
    token: t.admin,
    body: { name: "Extractor", role: "extract", concurrency_limit: 1, enabled: true },
  });
  expect(put.status, put.text).toBe(200);
  const created = await call("POST", "/v1/runs", {
    token: t.worker,
    body: {
      goal: "reissue under a cap",
      items: [
        item("x1", { persona_id: "extractor", priority: 9 }),
        item("x2", { persona_id: "extractor", priority: 1 }),
        item("p1", { depends_on: ["x1"] }),
        item("p2", { depends_on: ["p1"] }),
      ],
    },
  });
  expect(created.status, created.text).toBe(201);
  const runId = created.json.run_id as string;
  const x1 = await leased(t.extractor, "x1");
  const failed = await complete(t.extractor, x1, {
    outcome: "DECLINE",
    failure_class: "wrong_value",
    op_id: "op-wv",
    output: { reason: "total does not match" },
  });
  expect(failed.next).toBe("dead_letter");
  const gate = await call("GET", `/v1/runs/${runId}/gates/${failed.gate_id}`, { token: t.worker });
  expect(await itemStates(t.worker, runId)).toMatchObject({ x1: "dead_letter", p1: "skipped", p2: "skipped" });
  const x2 = await leased(t.extractor, "x2");
  return { t, runId, x2, digest: gate.json.digest as string };
}

const approve = (tok: string, runId: string, extra: Record<string, unknown> = {}) =>
  call("POST", "/v1/approvals", {
    token: tok,
    body: {
      run_id: runId,
      op_id: "op-wv",
      policy_key: "dead_letter_review",
      decision: "approve_retry",
      note: "checked the document",
      ...extra,
    },
  });

describe("a reissued graph item", () => {
  for (const how of ["approve_retry", "edit and retry"] as const) {
    it(`${how}: waits for the persona's cap, then runs, and its skipped chain runs after it passes`, async () => {
      const { t, runId, x2, digest } = await deadLetteredBesideALease(
        `board-reissue-${how === "approve_retry" ? "a" : "e"}`,
      );
      const decided = await approve(
        t.approver,
        runId,
        how === "approve_retry" ? {} : { patch: { corrected: true }, digest },
      );
      expect(decided.status, decided.text).toBe(200);
      // the extractor holds x2 (cap 1): the reissued x1 is not handed out, through the board or beside it
      expect((await leaseNext(t.extractor, "w2")).status).toBe(204);
      const direct = await call("POST", `/v1/runs/${runId}/orders/x1/lease`, {
        token: t.extractor,
        body: { worker_id: "w2" },
      });
      expect(direct.status).toBe(409);
      const board = await call("GET", "/v1/personas", { token: t.worker });
      expect(board.json.personas).toEqual([expect.objectContaining({ persona_id: "extractor", leased: 1, ready: 1 })]);
      expect(await itemStates(t.worker, runId)).toMatchObject({
        x1: "ready",
        x2: "leased",
        p1: "waiting",
        p2: "waiting",
      });
      await complete(t.extractor, x2, { outcome: "PASS", output: { ok: 2 } });
      const x1 = await leased(t.extractor, "x1");
      expect(x1.epoch).toBe(2);
      if (how === "edit and retry")
        expect((x1 as unknown as { order: { input_json: unknown } }).order.input_json).toEqual({ corrected: true });
      await complete(t.extractor, x1, { outcome: "PASS", output: { ok: 1 } });
      const p1 = await leased(t.worker, "p1");
      expect((p1 as unknown as { order: { input_json: unknown } }).order.input_json).toEqual({
        deps: { x1: { ok: 1 } },
      });
      await complete(t.worker, p1, { outcome: "PASS" });
      await complete(t.worker, await leased(t.worker, "p2"), { outcome: "PASS" });
      const run = await call("GET", `/v1/runs/${runId}`, { token: t.worker });
      expect(run.json.status).toBe("COMPLETE");
      expect(await itemStates(t.worker, runId)).toEqual({ x1: "passed", x2: "passed", p1: "passed", p2: "passed" });
    });
  }
});

describe("a graph item reissued by the soft dead_letter_reissue gate", () => {
  it("reopens the ended run: the item is leased through the board again and its skipped dependent runs", async () => {
    const t = await tokens("board-reissue-soft");
    const created = await call("POST", "/v1/runs", {
      token: t.worker,
      body: {
        goal: "soft reissue",
        items: [item("y1", { persona_id: "extractor" }), item("y2", { depends_on: ["y1"] })],
      },
    });
    expect(created.status, created.text).toBe(201);
    const runId = created.json.run_id as string;
    const y1 = await leased(t.extractor, "y1");
    const failed = await complete(t.extractor, y1, { outcome: "DECLINE", failure_class: "mystery_failure" });
    expect(failed.next).toBe("dead_letter");
    expect((await call("GET", `/v1/runs/${runId}`, { token: t.worker })).json.status).toBe("DEAD_LETTER");
    const gate = await call("POST", `/v1/runs/${runId}/gates`, {
      token: t.worker,
      body: {
        policy_key: "dead_letter_reissue",
        op_id: "reissue-1",
        context: { dead_letter_id: failed.dead_letter_id },
      },
    });
    expect(gate.status, gate.text).toBe(200);
    const decided = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: { run_id: runId, op_id: "reissue-1", policy_key: "dead_letter_reissue", decision: "approve_retry" },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(await itemStates(t.worker, runId)).toEqual({ y1: "ready", y2: "waiting" });
    // only the persona takes it, and only through lease-next (the board)
    expect((await leaseNext(t.worker)).status).toBe(204);
    const again = await leased(t.extractor, "y1");
    expect(again.epoch).toBe(2);
    await complete(t.extractor, again, { outcome: "PASS" });
    await complete(t.worker, await leased(t.worker, "y2"), { outcome: "PASS" });
    expect((await call("GET", `/v1/runs/${runId}`, { token: t.worker })).json.status).toBe("COMPLETE");
  });
});
