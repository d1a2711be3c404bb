// GET /healthz: liveness and version without auth, through the whole app in Node (nodeWarden).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call } = await nodeHelpers();

describe("GET /healthz", () => {
  it("answers ok with the version and a request id", async () => {
    const res = await call("GET", "/healthz");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, version: "0.1.0" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
