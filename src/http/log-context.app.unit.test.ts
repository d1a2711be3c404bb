// Correlation on every log line (seed 003 §12): a scripted run's lines, from the request scope and the run object,
// in Node (D1 and run object stand-ins).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunDO } from "../../durable-objects/run-do";
import { runInDurableObject } from "../../test/fakes/durable-objects";
import { captureLogLines, type LogLine } from "../../test/log-lines";
import { nodeHelpers } from "../../test/node-d1/app";

const { addOrder, call, startRun, stubFor, token } = await nodeHelpers();

describe("log correlation", () => {
  let lines: LogLine[];
  beforeEach(() => {
    lines = captureLogLines();
  });
  afterEach(() => vi.restoreAllMocks());

  it("writes each request of a scripted run (create, order, lease, complete, gate) with the fields it knows", async () => {
    const team = "log-corr";
    const requester = await token(team);
    const run = await startRun(requester);
    await addOrder(requester, run.run_id, "o1");
    const worker = await token(team, undefined, {
      sub: "worker-log",
      runId: run.run_id,
      taskId: "task-o1",
      personaId: "persona-extractor",
    });
    const orderPath = `/v1/runs/${run.run_id}/orders/o1`;
    const leased = await call("POST", `${orderPath}/lease`, { token: worker, body: { worker_id: "w1" } });
    expect(leased.status).toBe(200);
    const { lease_id, epoch } = leased.json;
    const done = await call("POST", `${orderPath}/complete`, {
      token: worker,
      body: { lease_id, epoch, op_id: "op-1", outcome: "PASS" },
    });
    expect(done.status).toBe(200);
    const gate = await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: worker,
      body: { policy_key: "wrong_value", op_id: "op-gate" },
    });
    expect(gate.status).toBe(200);

    const requests = lines.filter((l) => l.msg === "request");
    expect(requests.map((l) => `${l.method} ${l.path}`)).toEqual([
      "POST /v1/runs",
      `POST /v1/runs/${run.run_id}/orders`,
      `POST ${orderPath}/lease`,
      `POST ${orderPath}/complete`,
      `POST /v1/runs/${run.run_id}/gates`,
    ]);
    for (const l of requests) {
      expect(l.team_id).toBe(team);
      expect(l.request_id).toMatch(/^req_/);
      expect(typeof l.status).toBe("number");
    }
    // every request line after the run exists names it; the order's lines name the order; the worker's token adds its task and persona
    for (const l of requests.slice(1)) expect(l.run_id).toBe(run.run_id);
    for (const l of requests.slice(2, 4)) expect(l.order_id).toBe("o1");
    for (const l of requests.slice(2)) expect(l).toMatchObject({ task_id: "task-o1", persona_id: "persona-extractor" });
    // one request, one id
    expect(new Set(requests.map((l) => l.request_id)).size).toBe(requests.length);
  });

  it("writes a line logged inside the run object with the run, team, order and the order's task", async () => {
    const team = "log-corr-do";
    const tok = await token(team);
    const run = await startRun(tok);
    await addOrder(tok, run.run_id, "o2");
    // memory hints failing inside the object is one of the lines it writes (the run goes on without them)
    await runInDurableObject(stubFor(run.run_id), async (instance: RunDO) => {
      const deps = (instance.engine as unknown as { deps: { hints: { forTaskFailure: unknown } } }).deps;
      deps.hints.forTaskFailure = () => Promise.reject(new Error("hints store down"));
    });
    const leased = await call("POST", `/v1/runs/${run.run_id}/orders/o2/lease`, {
      token: tok,
      body: { worker_id: "w1" },
    });
    const { lease_id, epoch } = leased.json;
    const done = await call("POST", `/v1/runs/${run.run_id}/orders/o2/complete`, {
      token: tok,
      body: { lease_id, epoch, op_id: "op-fail", outcome: "ERROR", failure_class: "transient" },
    });
    expect(done.status).toBe(200);
    const inObject = lines.find((l) => l.msg === "failure hints unavailable");
    expect(inObject).toMatchObject({
      level: "warn",
      run_id: run.run_id,
      team_id: team,
      order_id: "o2",
      task_id: "task-o2",
      error: "Error: hints store down",
    });
  });
});
