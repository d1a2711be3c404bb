// The tools cannot drift from the routes: each tool's schemas ARE its route's zod schemas, its scopes ARE the route's.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../app";
import { routeScopes } from "../../http/scopes-doc";
import { partJsonSchema, toolInputSchema } from "./input-schema";
import { listTools } from "./server";
import { TOOLS } from "./tools";

type RouteConfig = {
  method: string;
  path: string;
  request?: {
    params?: z.ZodType;
    query?: z.ZodType;
    body?: { content: { "application/json": { schema: z.ZodType } } };
  };
};

const app = createApp();
const routes = new Map<string, RouteConfig>();
for (const d of app.openAPIRegistry.definitions as { type: string; route?: RouteConfig }[])
  if (d.type === "route" && d.route) routes.set(`${d.route.method.toUpperCase()} ${d.route.path}`, d.route);
const scopes = routeScopes(app.routes);

describe("MCP tools against their routes", () => {
  it("lists the seventeen tools of issue 29 (two of them the work board's), each once", () => {
    expect(TOOLS.map((t) => t.name).sort()).toEqual(
      [
        "board",
        "run_new_graph",
        "complete",
        "gate_open",
        "gate_status",
        "gate_wait",
        "gates_open_list",
        "heartbeat",
        "lease_next",
        "memory_activate",
        "memory_query",
        "memory_write",
        "policy_decide",
        "run_explain_exit",
        "run_start",
        "run_status",
        "session_record",
      ].sort(),
    );
  });

  for (const tool of TOOLS) {
    describe(tool.name, () => {
      const route = routes.get(tool.route);

      it("mirrors a route of the app", () => {
        expect(route, `${tool.route} is not a route of the app`).toBeDefined();
      });

      it("takes the route's own zod schemas for path, query and body", () => {
        expect(tool.parts.params).toBe(route?.request?.params);
        expect(tool.parts.query).toBe(route?.request?.query);
        expect(tool.parts.body).toBe(route?.request?.body?.content["application/json"].schema);
      });

      it("requires the route's scopes", () => {
        const [method, path] = tool.route.split(" ");
        expect([...tool.scopes]).toEqual(scopes.get(`${method?.toLowerCase()} ${path}`));
      });

      it("lists an inputSchema holding every property of the route's request, and only those (plus its own extras)", () => {
        const listed = listTools().find((t) => t.name === tool.name)?.inputSchema as {
          type: string;
          properties: Record<string, unknown>;
          required?: string[];
        };
        expect(listed.type).toBe("object");
        expect(JSON.stringify(listed)).not.toContain("$ref");
        const expected: Record<string, unknown> = {};
        const required: string[] = [];
        for (const part of [
          route?.request?.params,
          route?.request?.query,
          route?.request?.body?.content["application/json"].schema,
          tool.parts.extra,
        ]) {
          if (!part) continue;
          const js = partJsonSchema(part) as { properties: Record<string, unknown>; required?: string[] };
          Object.assign(expected, js.properties);
          required.push(...(js.required ?? []));
        }
        expect(listed.properties).toEqual(expected);
        expect(listed.required ?? []).toEqual(required);
        expect(listed).toEqual(toolInputSchema(tool.parts));
      });
    });
  }

  it("bounds gate_wait at 25 s", () => {
    const wait = TOOLS.find((t) => t.name === "gate_wait");
    expect(wait?.parts.extra?.safeParse({ wait_s: 26 }).success).toBe(false);
    expect(wait?.parts.extra?.safeParse({ wait_s: 25 }).success).toBe(true);
    expect(z.toJSONSchema(wait?.parts.extra as z.ZodType, { io: "input" })).toMatchObject({
      properties: { wait_s: { maximum: 25 } },
    });
  });
});
