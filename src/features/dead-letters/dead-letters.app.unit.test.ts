// GET /v1/dead-letters and GET /v1/dead-letters/:id over HTTP: filters, the review gate joined, the evidence of one,
// another team's and another run's dead letters never shown, bad queries refused.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { TEST_CLOCK_AHEAD_MS } from "../../../test/run-calls";

const { addOrder, call, complete, drainAll, lease, setClock, startRun, teamTokens, token } = await nodeHelpers();

/** Fails order `orderId` of the run with `failureClass` (none: dead-lettered as missing_failure_class) at once. */
async function deadLetter(tok: string, runId: string, orderId: string, failureClass: string | null) {
  await addOrder(tok, runId, orderId, { input_json: { invoice: orderId, total: 120 } });
  const l = await lease(tok, runId, orderId);
  expect(l.status, l.text).toBe(200);
  const op_id = `op-${orderId}`;
  const done = await complete(tok, runId, orderId, {
    lease_id: l.json.lease_id,
    epoch: l.json.epoch,
    op_id,
    outcome: "ERROR",
    ...(failureClass ? { failure_class: failureClass } : {}),
    output: { total: 210, schema_guard: "total does not match the line items" },
  });
  expect(done.status, done.text).toBe(200);
  expect(done.json.next).toBe("dead_letter");
  return { ...done.json, op_id };
}

const list = async (tok: string, query = "") => {
  await drainAll();
  return call("GET", `/v1/dead-letters${query}`, { token: tok });
};

describe("GET /v1/dead-letters", () => {
  it("lists open dead letters oldest first with the review gate of a wrong value; filters by reason, run, since, status", async () => {
    const t = await teamTokens("dl-list");
    const run = await startRun(t.worker);
    const wrong = await deadLetter(t.worker, run.run_id, "o1", "wrong_value");
    // the run's clock is pinned: move it so the second dead letter is the younger one
    await setClock(run.run_id, Date.now() + TEST_CLOCK_AHEAD_MS + 60_000);
    const tool = await deadLetter(t.worker, run.run_id, "o2", null);
    const other = await teamTokens("dl-list-other");
    const foreign = await startRun(other.worker);
    await deadLetter(other.worker, foreign.run_id, "o1", "wrong_value");

    const all = await list(t.approver);
    expect(all.status, all.text).toBe(200);
    expect(all.json.dead_letters.map((d: { dead_letter_id: string }) => d.dead_letter_id)).toEqual([
      wrong.dead_letter_id,
      tool.dead_letter_id,
    ]);
    expect(all.json.dead_letters[0]).toMatchObject({
      run_id: run.run_id,
      op_id: wrong.op_id,
      order_id: "o1",
      failure_class: "wrong_value",
      resolved_at: null,
      review_gate_id: wrong.gate_id,
      review_status: "pending",
    });
    expect(all.json.dead_letters[1]).toMatchObject({ order_id: "o2", review_gate_id: null, review_status: null });

    const byReason = await list(t.approver, "?reason=wrong_value");
    expect(byReason.json.dead_letters.map((d: { order_id: string }) => d.order_id)).toEqual(["o1"]);
    expect((await list(t.approver, `?run_id=${foreign.run_id}`)).json.dead_letters).toEqual([]);
    expect((await list(t.approver, `?since=${Date.now() + 10 * 86_400_000}`)).json.dead_letters).toEqual([]);
    expect((await list(t.approver, "?status=resolved")).json.dead_letters).toEqual([]);

    const skip = await call("POST", `/v1/gates/${wrong.gate_id}/decision`, {
      token: t.approver,
      body: { decision: "approve_skip", note: "the supplier fixes it" },
    });
    expect(skip.status, skip.text).toBe(200);
    expect((await list(t.approver)).json.dead_letters.map((d: { order_id: string }) => d.order_id)).toEqual(["o2"]);
    const resolved = (await list(t.approver, "?status=resolved")).json.dead_letters;
    expect(resolved).toEqual([
      expect.objectContaining({
        dead_letter_id: wrong.dead_letter_id,
        resolver: "approver-dl-list",
        review_status: "skipped",
      }),
    ]);
    expect((await list(t.approver, "?status=all")).json.dead_letters).toHaveLength(2);
  });

  it("refuses bad queries with 400 naming the field; a token without runs:read gets 403", async () => {
    const t = await teamTokens("dl-bad");
    for (const q of ["?status=maybe", "?limit=0", "?limit=501", "?since=yesterday", "?reason="]) {
      const r = await list(t.approver, q);
      expect(r.status, q).toBe(400);
      expect(r.json.error.code).toBe("validation_failed");
    }
    const memoryOnly = await token("dl-bad", ["memory:read"]);
    expect((await list(memoryOnly)).status).toBe(403);
  });
});

describe("GET /v1/dead-letters/:dead_letter_id", () => {
  it("shows a wrong value's review gate with the input, output, reason and digest", async () => {
    const t = await teamTokens("dl-show");
    const run = await startRun(t.worker);
    const wrong = await deadLetter(t.worker, run.run_id, "o1", "wrong_value");
    await drainAll();
    const r = await call("GET", `/v1/dead-letters/${wrong.dead_letter_id}`, { token: t.approver });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      dead_letter_id: wrong.dead_letter_id,
      goal: "work on o1",
      attempts: 1,
      review_gate_id: wrong.gate_id,
      review: {
        gate_id: wrong.gate_id,
        kind: "hard",
        status: "pending",
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        context: {
          dead_letter_id: wrong.dead_letter_id,
          reason: "total does not match the line items",
          input: { invoice: "o1", total: 120 },
          output: { total: 210, schema_guard: "total does not match the line items" },
          artifacts: [],
        },
      },
    });
    // the run view does not carry the evidence of every review (one gate at a time)
    const view = await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker });
    expect(view.json.gates[0].context).toBeUndefined();
  });

  it("answers 404 for an unknown id, another team's, or another run's for a run-bound token", async () => {
    const t = await teamTokens("dl-404");
    const run = await startRun(t.worker);
    const mine = await deadLetter(t.worker, run.run_id, "o1", null);
    const other = await teamTokens("dl-404-other");
    await drainAll();
    expect((await call("GET", "/v1/dead-letters/dl_nope", { token: t.approver })).status).toBe(404);
    const foreign = await call("GET", `/v1/dead-letters/${mine.dead_letter_id}`, { token: other.approver });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(run.run_id);
    const bound = await token("dl-404", undefined, { sub: "agent", runId: "run_other" });
    expect((await call("GET", `/v1/dead-letters/${mine.dead_letter_id}`, { token: bound })).status).toBe(404);
    expect((await call("GET", "/v1/dead-letters", { token: bound })).json.dead_letters).toEqual([]);
    const ownBound = await token("dl-404", undefined, { sub: "agent", runId: run.run_id });
    const own = await call("GET", `/v1/dead-letters/${mine.dead_letter_id}`, { token: ownBound });
    expect(own.status, own.text).toBe(200);
    expect(own.json.review).toBeNull();
  });
});
