// Fleet routes over HTTP: GET /v1/runs (team-wide, cursor pages) and POST /v1/orders/lease-next (pull work by skill).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { addOrder, call, complete, drainAll, lease, setClock, startRun, teamTokens, token } = await nodeHelpers();

const listRuns = async (tok: string, query = "") => {
  await drainAll();
  return call("GET", `/v1/runs${query}`, { token: tok });
};
const leaseNext = async (tok: string, body: unknown) => {
  await drainAll();
  return call("POST", "/v1/orders/lease-next", { token: tok, body });
};

describe("GET /v1/runs", () => {
  it("pages through the team's runs newest first with a cursor, filtered by status", async () => {
    const t = await teamTokens("fleet-list");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await startRun(t.worker, { goal: `goal ${i}` })).run_id);
    await (await teamTokens("fleet-list-other")).worker; // another team's runs never show
    await startRun((await teamTokens("fleet-list-other")).worker);

    const first = await listRuns(t.worker, "?limit=2");
    expect(first.status, first.text).toBe(200);
    expect(first.json.runs).toHaveLength(2);
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const seen: string[] = first.json.runs.map((r: { run_id: string }) => r.run_id);
    let cursor = first.json.next_cursor;
    while (cursor) {
      const page = await listRuns(t.worker, `?limit=2&cursor=${cursor}`);
      seen.push(...page.json.runs.map((r: { run_id: string }) => r.run_id));
      cursor = page.json.next_cursor;
    }
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).toHaveLength(5);

    await call("POST", `/v1/runs/${ids[0]}/stop`, { token: t.worker, body: {} });
    const stopped = await listRuns(t.worker, "?status=STOPPED");
    expect(stopped.json.runs.map((r: { run_id: string }) => r.run_id)).toEqual([ids[0]]);
    expect(stopped.json.runs[0]).toMatchObject({ goal: "goal 0", status: "STOPPED", kind: "agent" });
  });

  it("refuses a forged cursor, an unknown status and a missing scope", async () => {
    const t = await teamTokens("fleet-bad");
    const bad = await listRuns(t.worker, "?cursor=not-a-cursor");
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("cursor");
    expect((await listRuns(t.worker, "?status=DONE")).status).toBe(400);
    expect((await listRuns(t.worker, "?limit=0")).status).toBe(400);
    const noScope = await token("fleet-bad", ["memory:read"]);
    expect((await listRuns(noScope)).status).toBe(403);
  });
});

describe("POST /v1/orders/lease-next", () => {
  it("leases the team's oldest available order whose skill the worker has", async () => {
    const t = await teamTokens("fleet-next");
    const run = await startRun(t.worker);
    // the run's clock is pinned: one order per millisecond, so "oldest" is the order they were posted in
    const t0 = Date.now() + 86_400_000;
    for (const [i, [id, extra]] of (
      [
        ["o-ocr", { skill: "ocr" }],
        ["o-extract", { skill: "extract" }],
        ["o-any", {}],
      ] as const
    ).entries()) {
      await setClock(run.run_id, t0 + i);
      await addOrder(t.worker, run.run_id, id, extra);
    }

    const got = await leaseNext(t.worker, { worker_id: "w1", skills: ["extract"] });
    expect(got.status, got.text).toBe(200);
    expect(got.json).toMatchObject({ run_id: run.run_id, order_id: "o-extract", epoch: 1, lease_ttl_ms: 30_000 });
    expect(got.json.lease_id).toEqual(expect.any(String));
    // next: the order without a skill matches any worker
    expect((await leaseNext(t.worker, { worker_id: "w1", skills: ["extract"] })).json.order_id).toBe("o-any");
    // nothing left for this skill: 204 with Retry-After
    const none = await leaseNext(t.worker, { worker_id: "w1", skills: ["extract"] });
    expect(none.status).toBe(204);
    expect(Number(none.headers.get("retry-after"))).toBeGreaterThan(0);
    // without skills every order matches
    expect((await leaseNext(t.worker, { worker_id: "w2" })).json.order_id).toBe("o-ocr");
  });

  it("skips orders of stopped runs and other teams, and answers 204 + Retry-After when idle", async () => {
    const t = await teamTokens("fleet-idle");
    const other = await teamTokens("fleet-idle-other");
    const o = await startRun(other.worker);
    await addOrder(other.worker, o.run_id, "theirs");
    const stopped = await startRun(t.worker);
    await addOrder(t.worker, stopped.run_id, "o1");
    await call("POST", `/v1/runs/${stopped.run_id}/stop`, { token: t.worker, body: {} });
    const res = await leaseNext(t.worker, { worker_id: "w1" });
    expect(res.status).toBe(204);
    expect(res.headers.get("retry-after")).toBe("2");
  });

  it("answers a back-off with the wait as Retry-After (and the plain lease route too)", async () => {
    const t = await teamTokens("fleet-backoff");
    const run = await startRun(t.worker);
    await addOrder(t.worker, run.run_id, "o1");
    const l = (await lease(t.worker, run.run_id, "o1")).json;
    const held = await lease(t.worker, run.run_id, "o1", "w2");
    expect(held.status).toBe(409);
    expect(Number(held.headers.get("retry-after"))).toBe(30);
    const r = await complete(t.worker, run.run_id, "o1", {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "op1",
      outcome: "ERROR",
      failure_class: "rate_limit",
    });
    expect(r.json).toMatchObject({ next: "retry", retry_after_ms: 1000 });
    const refused = await lease(t.worker, run.run_id, "o1");
    expect(refused.status).toBe(409);
    expect(refused.headers.get("retry-after")).toBe("1");
    const next = await leaseNext(t.worker, { worker_id: "w1" });
    expect(next.status).toBe(204);
    expect(next.headers.get("retry-after")).toBe("1");
  });

  it("refuses bad bodies and a token without runs:write", async () => {
    const t = await teamTokens("fleet-next-bad");
    expect((await leaseNext(t.worker, {})).status).toBe(400);
    expect((await leaseNext(t.worker, { worker_id: "w", skills: "extract" })).status).toBe(400);
    expect((await leaseNext(t.worker, { worker_id: "w", skills: [""] })).status).toBe(400);
    const reader = await token("fleet-next-bad", ["runs:read"]);
    expect((await leaseNext(reader, { worker_id: "w" })).status).toBe(403);
  });
});
