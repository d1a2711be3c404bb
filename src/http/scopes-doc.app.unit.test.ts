// The OpenAPI document names each authenticated route's scopes (security + description), read from requireScope (app in Node).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../test/node-d1/app";

const { call } = await nodeHelpers();

describe("GET /openapi.json scopes", () => {
  it("lists the scopes of every /v1 route in security and in a description line", async () => {
    const doc = (await call("GET", "/openapi.json")).json;
    const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, m]) =>
      Object.entries(m).map(([method, op]) => ({ path, method, op })),
    );
    const v1 = ops.filter((o) => o.path.startsWith("/v1/"));
    expect(v1.length).toBeGreaterThan(20);
    for (const { path, method, op } of v1) {
      // POST /v1/tokens is authenticated by a team API key, not by a scoped capability token
      if (op.security?.[0]?.apiKey) continue;
      const scopes = op.security?.[0]?.bearerAuth;
      expect(scopes?.length, `${method} ${path}`).toBeGreaterThan(0);
      expect(op.description, `${method} ${path}`).toMatch(/^Scopes?: /);
    }
    const decide = doc.paths["/v1/gates/{gate_id}/decision"].post;
    expect(decide.security).toEqual([{ bearerAuth: ["approvals:decide"] }]);
    expect(doc.paths["/v1/runs/{run_id}"].get.description).toMatch(/^Scopes: runs:read or runs:write\./);
    expect(doc.paths["/healthz"].get.security).toBeUndefined();
  });
});
