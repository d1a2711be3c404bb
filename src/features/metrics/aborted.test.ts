// GET /v1/metrics: gates aborted by stopping their run are neither human approvals nor human approval latencies.
import { describe, expect, it } from "vitest";
import { call, token } from "../../../test/helpers";
import { eventually } from "../../../test/learning";
import { drainAll, startRun, teamTokens } from "../../../test/run-helpers";

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
    const reader = await token("met-stop", ["runs:read"]);
    const metrics = await eventually(async () => {
      const m = (await call("GET", "/v1/metrics", { token: reader })).json;
      return m.gates_by_kind?.hard === 4 ? m : undefined;
    });
    expect(metrics.human_approvals).toBe(1);
    // the run-stop aborts have latencies in gate_metric, but they are not a human's
    const settled = await eventually(async () => {
      const m = (await call("GET", "/v1/metrics", { token: reader })).json;
      return m.human_approval_latency_ms?.samples >= 1 ? m : undefined;
    });
    expect(settled.human_approval_latency_ms.samples).toBe(1);
  });
});
