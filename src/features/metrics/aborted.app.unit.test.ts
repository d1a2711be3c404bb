// GET /v1/metrics in Node (D1, Durable Object and queue stand-ins): gates aborted by stopping their run are neither
// human approvals nor human approval latencies.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call, token, drainAll, drainQueues, startRun, teamTokens } = await nodeHelpers({ queues: true });

describe("human approvals in metrics", () => {
  it("does not count gates aborted by stopping a run", async () => {
    const t = await teamTokens("met-stop");
    const a = await startRun(t.worker);
    const g = (
      await call("POST", `/v1/runs/${a.run_id}/gates`, {
        token: t.worker,
        body: { policy_key: "wrong_value", op_id: "op-1" },
      })
    ).json;
    await call("POST", `/v1/runs/${a.run_id}/gates`, {
      token: t.worker,
      body: { policy_key: "pii_detected", op_id: "op-2" },
    });
    await drainAll();
    const decided = await call("POST", `/v1/gates/${g.gate_id}/decision`, {
      token: t.approver,
      body: { decision: "deny", note: "wrong total" },
    });
    expect(decided.status, decided.text).toBe(200);
    const b = await startRun(t.worker);
    for (const op of ["op-3", "op-4"])
      await call("POST", `/v1/runs/${b.run_id}/gates`, {
        token: t.worker,
        body: { policy_key: "wrong_value", op_id: op },
      });
    await call("POST", `/v1/runs/${a.run_id}/stop`, { token: t.worker, body: { reason: "done" } });
    await call("POST", `/v1/runs/${b.run_id}/stop`, { token: t.worker, body: {} });
    await drainAll();
    // the EVENTS consumer's effects (gate_metric) land when the queue is drained: no polling in Node
    await drainQueues();
    const reader = await token("met-stop", ["runs:read"]);
    const metrics = (await call("GET", "/v1/metrics", { token: reader })).json;
    expect(metrics.gates_by_kind?.hard).toBe(4);
    expect(metrics.human_approvals).toBe(1);
    // the run-stop aborts have latencies in gate_metric, but they are not a human's
    expect(metrics.human_approval_latency_ms.samples).toBe(1);
  });
});
