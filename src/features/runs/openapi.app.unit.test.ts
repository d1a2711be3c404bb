// The OpenAPI document lists every run, gate and approval route (the app in Node, nodeWarden).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call } = await nodeHelpers();

describe("GET /openapi.json", () => {
  it("documents the run, gate and approval routes", async () => {
    const res = await call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    const paths = Object.keys(res.json.paths);
    for (const p of [
      "/v1/runs",
      "/v1/runs/{run_id}",
      "/v1/runs/{run_id}/explain-exit",
      "/v1/runs/{run_id}/orders",
      "/v1/runs/{run_id}/orders/{order_id}/lease",
      "/v1/runs/{run_id}/orders/{order_id}/heartbeat",
      "/v1/runs/{run_id}/orders/{order_id}/complete",
      "/v1/runs/{run_id}/stop",
      "/v1/runs/{run_id}/gates",
      "/v1/runs/{run_id}/gates/{gate_id}",
      "/v1/approvals",
      "/v1/policy/gates",
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(res.json.paths["/v1/policy/gates"].put).toBeDefined();
  });
});
