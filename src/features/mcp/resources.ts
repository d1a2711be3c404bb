// MCP resources (a run, the policy profile, memory hints for a need) and the session_start prompt, over the use-cases.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Scope } from "../../auth/tokens";
import { type AppError, AppFailure, orFail, toWire } from "../../errors";
import { ActivateBody } from "../memory";
import { actorOf, callRun } from "../runs";
import type { ToolContext } from "./tools";

/** The session kind resources and prompts activate memory for when the caller names none. */
export const MCP_SESSION_KIND = "warden.agent.mcp";
/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

const RUN_URI = /^warden:\/\/runs\/([\w.:-]{1,128})$/;
const HINTS_URI = /^warden:\/\/memory\/hints\/((?:sha256:)?[0-9a-f]{16,64})$/;
const PROFILE_URI = "warden://policy/profile";

type Read = { scopes: readonly Scope[]; read: (ctx: ToolContext) => Promise<unknown> };

/** The resource a URI names, with the scopes its route needs; null for a URI Warden does not serve. */
export function resourceFor(uri: string): Read | null {
  const run = RUN_URI.exec(uri);
  if (run) {
    const runId = run[1] as string;
    return {
      scopes: ["runs:read", "runs:write"],
      read: async (ctx) => (await callRun(ctx.deps.runs, runId, "view", { actor: actorOf(ctx.principal) })).value,
    };
  }
  if (uri === PROFILE_URI)
    return {
      scopes: ["policy:decide", "policy:admin"],
      read: async (ctx) => (await ctx.deps.policies.get(ctx.principal.teamId, ctx.deps.clock.now())).compiled.profile,
    };
  const hints = HINTS_URI.exec(uri);
  if (hints)
    return {
      scopes: ["memory:read"],
      read: (ctx) => activate(ctx, { session_kind: MCP_SESSION_KIND, need_fingerprint: hints[1] as string }),
    };
  return null;
}

async function activate(ctx: ToolContext, body: unknown) {
  const parsed = ActivateBody.safeParse(body);
  if (!parsed.success) {
    const list = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new McpError(ErrorCode.InvalidParams, `invalid arguments: ${list}`);
  }
  return orFail(await ctx.deps.sessions.activate(ctx.principal, parsed.data, ctx.deps.clock.now()));
}

/** A refusal as the protocol's error: not found as MCP's resource-not-found, the rest as invalid request. */
function protocolError(error: AppError, requestId: string): McpError {
  const wire = toWire(error, requestId).body.error;
  const code = error.code === "not_found" ? RESOURCE_NOT_FOUND : ErrorCode.InvalidRequest;
  return new McpError(code, `${wire.code}: ${wire.message}`);
}

async function guarded<T>(ctx: ToolContext & { requestId: string }, scopes: readonly Scope[], work: () => Promise<T>) {
  try {
    if (!scopes.some((s) => ctx.principal.scopes.has(s)))
      throw new AppFailure({ code: "forbidden", message: `token lacks scope ${scopes.join(" or ")}` });
    return await work();
  } catch (e) {
    if (e instanceof AppFailure) throw protocolError(e.error, ctx.requestId);
    throw e;
  }
}

/** Summarises an activation for an agent starting a session: what to reuse, what went wrong before. */
export function sessionStartText(a: { hints: unknown[]; stabilized_routes: unknown[]; recent_episodes: unknown[] }) {
  const lines = [
    "You are starting a session under Warden. Before acting:",
    `- ${a.stabilized_routes.length} stabilized route(s): when one matches the need, follow it instead of reasoning from scratch.`,
    `- ${a.hints.length} hint(s) from past runs and ${a.recent_episodes.length} recent episode(s) follow as JSON.`,
    "Ask policy_decide when a step fails, gate_open before a risky step, and session_record when you finish.",
    JSON.stringify(a),
  ];
  return lines.join("\n");
}

export function registerResources(server: Server, ctx: ToolContext & { requestId: string }) {
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: PROFILE_URI,
        name: "policy profile",
        description: "the team's active MemRL profile",
        mimeType: "application/json",
      },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: "warden://runs/{run_id}",
        name: "run",
        description: "a run: status and last steps",
        mimeType: "application/json",
      },
      {
        uriTemplate: "warden://memory/hints/{need_fingerprint}",
        name: "memory hints",
        description: "the memory activation for a need fingerprint (a hex digest, never the raw need)",
        mimeType: "application/json",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    const r = resourceFor(uri);
    if (!r) throw new McpError(RESOURCE_NOT_FOUND, `no resource ${JSON.stringify(uri.slice(0, 200))}`);
    const value = await guarded(ctx, r.scopes, () => r.read(ctx));
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value) }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      {
        name: "session_start",
        description: "Activates memory for this session and summarises the hints for the agent",
        arguments: [
          { name: "session_kind", description: `warden.agent.<name> (default ${MCP_SESSION_KIND})` },
          { name: "need_fingerprint", description: "a hex digest of the need, never the raw need" },
          { name: "query", description: "what the session is about, in words" },
        ],
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    if (req.params.name !== "session_start")
      throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(req.params.name.slice(0, 64))}`);
    const args = req.params.arguments ?? {};
    const body = { session_kind: MCP_SESSION_KIND, ...args };
    const activation = await guarded(ctx, ["memory:read"], () => activate(ctx, body));
    return {
      description: "memory activated for this session",
      messages: [{ role: "user" as const, content: { type: "text" as const, text: sessionStartText(activation) } }],
    };
  });
}
