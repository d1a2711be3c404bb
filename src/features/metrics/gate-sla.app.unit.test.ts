// GET /v1/metrics' gate SLA fields in Node (D1 and Durable Object stand-ins): breaches of each SLA among the window's
// gates and the ack latency.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { gateSlaMetrics } from "./gate-sla";

const { call, deps, drainAll, startRun, teamTokens } = await nodeHelpers();

const MIN = 60_000;

describe("gate SLA metrics", () => {
  it("counts ack and resolve breaches and the first-response latency of the window's human gates", async () => {
    const t = await teamTokens("sla-metrics");
    const run = await startRun(t.worker);
    const open = (op_id: string, policy_key = "wrong_value") =>
      call("POST", `/v1/runs/${run.run_id}/gates`, { token: t.worker, body: { policy_key, op_id } });
    const silent = await open("op-silent");
    const acked = await open("op-acked");
    await open("op-soft", "schema_invalid"); // a soft gate: no SLA
    await drainAll();
    // the gate index row through its store (what the SQL read before)
    const rows = await deps.gateSla.gatesOpenedSince("sla-metrics", 0, 10);
    const openedAt = rows.find((g) => g.gate_id === acked.json.gate_id)?.opened_at ?? 0;
    // acknowledged 3 minutes after opening (the run objects' clocks run a day ahead in tests: set the time here)
    expect(await deps.runRecord.ackGate("sla-metrics", acked.json.gate_id, "alice", openedAt + 3 * MIN)).toMatchObject({
      acked_by: "alice",
    });
    const since = openedAt - 60_000;
    const early = await gateSlaMetrics(deps, "sla-metrics", since, openedAt + 1000);
    expect(early).toMatchObject({ gate_ack_sla_breaches: 0, gate_resolve_sla_breaches: 0 });
    expect(early.gate_ack_latency_ms).toEqual({ p50: 3 * MIN, p95: 3 * MIN, samples: 1 });
    const late = await gateSlaMetrics(deps, "sla-metrics", since, openedAt + 61 * MIN);
    // the silent gate missed both SLAs; the acknowledged one only its resolve SLA
    expect(late).toMatchObject({ gate_ack_sla_breaches: 1, gate_resolve_sla_breaches: 2 });
    expect(silent.json.kind).toBe("hard");
  });

  it("adds the fields to GET /v1/metrics without renaming any", async () => {
    const t = await teamTokens("sla-metrics-http");
    const res = await call("GET", "/v1/metrics", { token: t.worker });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      gate_ack_sla_breaches: 0,
      gate_resolve_sla_breaches: 0,
      gate_ack_latency_ms: { p50: null, p95: null, samples: 0 },
      human_approval_latency_ms: expect.any(Object),
      gates_by_kind: expect.any(Object),
    });
  });
});
