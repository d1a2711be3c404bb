// The official MCP client (@modelcontextprotocol/sdk Client + StreamableHTTPClientTransport) over real HTTP against
// the shared `npm start` server: what a coding agent sees, from initialize to a hard gate approved by a human.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { readDevVars } from "../../../scripts/dev-vars.mjs";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../../../test/node-server/local-server.ts";
import { mintToken } from "../../auth/mint.ts";
import type { Scope } from "../../auth/tokens.ts";
import { toolInputSchema } from "./input-schema.ts";
import { TOOLS } from "./tools.ts";

const root = join(import.meta.dirname, "..", "..", "..");
const ALL: Scope[] = ["policy:decide", "runs:read", "runs:write", "memory:read", "memory:write", "events:write"];
let secret: string;
const clients: Client[] = [];

const tokenFor = (teamId: string, scopes: Scope[] = ALL, sub = `agent:${teamId}`) =>
  mintToken({ secret, teamId, scopes, sub });

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: "warden-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", sharedServerUrl()), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const use = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer;

beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);
beforeAll(() => {
  secret = (readDevVars(join(root, ".dev.vars")) as { WARDEN_JWT_SECRET: string }).WARDEN_JWT_SECRET;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

describe("Warden over MCP with the official client", () => {
  it("initializes and lists every tool with the schema generated from its route", async () => {
    const client = await connect(await tokenFor("t-mcp-1"));
    expect(client.getServerVersion()).toMatchObject({ name: "warden" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const t of TOOLS) {
      const listed = tools.find((l) => l.name === t.name);
      expect(listed?.inputSchema, t.name).toEqual(toolInputSchema(t.parts));
      expect(listed?.description).toContain(t.route);
    }
  });

  it("decides with policy_decide: the route's JSON and a summary line", async () => {
    const client = await connect(await tokenFor("t-mcp-1"));
    const r = await use(client, "policy_decide", {
      memrl_mode: "enforce",
      failure_class: "vibe_fail",
      attempt: 1,
      max_attempts: 3,
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      action: "retry",
      rule_id: "enforce.vibe_fail.initial",
      profile: { team_id: "t-mcp-1" },
    });
    expect(r.content[0]?.text.split("\n")[0]).toContain("retry (rule enforce.vibe_fail.initial");
  });

  it("opens a hard gate, waits (pending), and after a human approves through /v1/approvals waits to approved", async () => {
    const client = await connect(await tokenFor("t-mcp-2"));
    const run = await use(client, "run_start", { goal: "MCP gate flow" });
    const runId = run.structuredContent.run_id as string;
    const gate = await use(client, "gate_open", { run_id: runId, policy_key: "wrong_value", op_id: "op-mcp-1" });
    expect(gate.structuredContent).toMatchObject({ kind: "hard", status: "pending" });
    const gateId = gate.structuredContent.gate_id as string;
    const waiting = await use(client, "gate_wait", { run_id: runId, gate_id: gateId, wait_s: 1 });
    expect(waiting.structuredContent).toMatchObject({ gate_id: gateId, status: "pending" });
    expect(waiting.content[0]?.text).toContain("still pending");

    const listed = await use(client, "gates_open_list", {});
    expect(listed.structuredContent.gates.map((g: { gate_id: string }) => g.gate_id)).toContain(gateId);

    const approver = await tokenFor("t-mcp-2", ["approvals:decide"], "alice@example.test");
    const approval = await fetch(new URL("/v1/approvals", sharedServerUrl()), {
      method: "POST",
      headers: { authorization: `Bearer ${approver}`, "content-type": "application/json" },
      body: JSON.stringify({
        run_id: runId,
        op_id: "op-mcp-1",
        policy_key: "wrong_value",
        decision: "approve_retry",
        note: "checked",
      }),
    });
    expect(approval.status).toBe(200);
    const decided = await use(client, "gate_wait", { run_id: runId, gate_id: gateId, wait_s: 5 });
    expect(decided.structuredContent).toMatchObject({
      gate_id: gateId,
      status: "approved",
      decided_by: "alice@example.test",
    });
  });

  it("refuses a memory write holding a secret as a tool error naming the rule, and stores nothing", async () => {
    const client = await connect(await tokenFor("t-mcp-3"));
    const secretValue = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789";
    const text = `deploy token ${secretValue} for the billing job`;
    const r = await use(client, "memory_write", { namespace: "team/t-mcp-3/org/notes", class: "kb", text });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.error.code).toBe("redaction_required");
    expect(r.structuredContent.error.details.rule_ids.length).toBeGreaterThan(0);
    expect(JSON.stringify(r)).not.toContain(secretValue);
    const q = await use(client, "memory_query", {
      namespaces: ["team/t-mcp-3/org/notes"],
      text: "deploy token billing job",
    });
    expect(q.structuredContent.results).toEqual([]);
  });

  it("answers invalid arguments with the protocol's invalid-params error naming the paths", async () => {
    const client = await connect(await tokenFor("t-mcp-1"));
    const error = await client
      .callTool({ name: "complete", arguments: { run_id: "r", order_id: "o", outcome: "MAYBE" } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    for (const path of ["outcome", "lease_id", "epoch", "op_id"]) expect(error.message).toContain(`${path}:`);
  });

  it("refuses a token without the tool's scope", async () => {
    const client = await connect(await tokenFor("t-mcp-4", ["memory:read"]));
    const r = await use(client, "policy_decide", { failure_class: "vibe_fail", attempt: 1 });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.error.code).toBe("forbidden");
    expect(r.content[0]?.text).toContain("policy:decide");
  });

  it("answers another team's run id with not_found, never its data", async () => {
    const owner = await connect(await tokenFor("t-mcp-5"));
    const run = await use(owner, "run_start", { goal: "private goal of t-mcp-5" });
    const other = await connect(await tokenFor("t-mcp-6"));
    for (const name of ["run_status", "run_explain_exit"]) {
      const r = await use(other, name, { run_id: run.structuredContent.run_id });
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent.error.code).toBe("not_found");
      expect(JSON.stringify(r)).not.toContain("private goal");
    }
  });

  it("refuses a connection without credentials", async () => {
    const client = new Client({ name: "warden-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", sharedServerUrl()));
    await expect(client.connect(transport)).rejects.toThrow(/401|unauthorized/i);
  });

  it("reads the run resource and the session_start prompt", async () => {
    const client = await connect(await tokenFor("t-mcp-7"));
    const run = await use(client, "run_start", { goal: "resource run" });
    const runId = run.structuredContent.run_id as string;
    const res = await client.readResource({ uri: `warden://runs/${runId}` });
    expect(JSON.parse((res.contents[0] as { text: string }).text)).toMatchObject({ run_id: runId, status: "PENDING" });
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain("warden://runs/{run_id}");
    const prompt = await client.getPrompt({ name: "session_start", arguments: { query: "rotate expiring access" } });
    expect(JSON.stringify(prompt.messages[0]?.content)).toContain("stabilized route(s)");
  });
});
