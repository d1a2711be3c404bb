// POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (one server per request, JSON answers).

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context } from "hono";
import { applyRateLimits, jsonDepth, MAX_JSON_DEPTH, preAuthLimit } from "../../http/middleware";
import { featureApp } from "../../http/openapi";
import type { FeatureEnv } from "../../http/types";
import { log } from "../../lib/log";
import { authenticateMcp } from "./auth";
import type { McpNeeds } from "./needs";
import { createMcpServer } from "./server";

export const MCP_PATH = "/mcp";

/** A JSON-RPC error answered outside the protocol's own handling (auth, body, method), with its HTTP status. */
function rpcError(status: 400 | 401 | 405, code: number, message: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

type Ctx = Context<FeatureEnv<McpNeeds>>;

const deferrer = (c: Ctx) => (work: Promise<unknown>) =>
  c.executionCtx.waitUntil(work.catch((e) => log.error("mcp deferred work failed", { error: String(e) })));

async function readBody(c: Ctx): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const text = await c.req.text();
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    return { ok: false, message: `JSON nests deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: "request body is not valid JSON" };
  }
}

export const mcpRoutes = featureApp<McpNeeds>()
  .post(MCP_PATH, async (c) => {
    const { deps } = c.env;
    const defer = deferrer(c);
    const now = deps.clock.now();
    const auth = await authenticateMcp(deps, c.req.header("authorization"), now, defer);
    if (!auth.ok) {
      // as on /v1: a caller that has not proven who it is spends its IP's pre-auth budget (429 once spent)
      await preAuthLimit(c, now);
      return rpcError(401, -32001, `unauthorized: ${auth.error}`, {
        "WWW-Authenticate": 'Bearer realm="warden", error="invalid_token"',
      });
    }
    const body = await readBody(c);
    if (!body.ok) return rpcError(400, -32700, `parse error: ${body.message}`);
    const principal = auth.value;
    const server = createMcpServer({
      deps,
      principal,
      defer,
      requestId: c.get("requestId"),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      spendLimits: async (route) => {
        await applyRateLimits(deps, route, principal.teamId, principal.subject, deps.clock.now());
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody: body.value });
  })
  // stateless: no server-initiated stream to GET and no session to DELETE (the transport spec allows 405 for both)
  .on(["GET", "DELETE"], MCP_PATH, () =>
    rpcError(405, -32000, "method not allowed: this MCP server is stateless; POST JSON-RPC to /mcp", { Allow: "POST" }),
  );
