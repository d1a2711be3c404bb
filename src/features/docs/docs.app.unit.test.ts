// GET /openapi.json and GET /docs: the OpenAPI document and its rendered reference, over the whole app in Node (nodeWarden).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call } = await nodeHelpers();

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string }; example?: unknown }> } }>
  >;
  components: { schemas: Record<string, { example?: unknown }> };
};

describe("GET /openapi.json", () => {
  it("describes every route as OpenAPI 3.1, without auth", async () => {
    const res = await call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.json as Doc;
    expect(doc.openapi).toBe("3.1.0");
    for (const path of ["/healthz", "/v1/policy/decide", "/v1/policy/profile", "/v1/policy/replay"]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it("gives every JSON request body an example", async () => {
    const doc = (await call("GET", "/openapi.json")).json as Doc;
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const media = op.requestBody?.content["application/json"];
        if (!media) continue;
        if (media.example !== undefined) continue;
        const schema = media.schema;
        const ref = schema.$ref?.replace("#/components/schemas/", "");
        const component = ref ? doc.components.schemas[ref] : (schema as { example?: unknown });
        if (component?.example === undefined) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("GET /docs", () => {
  it("renders a readable reference of every route with its examples", async () => {
    const res = await call("GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain("<code>/v1/policy/decide</code>");
    expect(res.text).toContain("vibe_fail");
    expect(res.text).not.toContain("<script");
  });
});
