// POST /mcp in Node (D1, run, board and team object stand-ins): auth (token, API key, none), scopes, invalid params,
// guard refusals, other teams, audit.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { memoryToolsOver } from "../../../test/node-d1/memory";
import { workItem } from "../../../test/work-item";

type Rpc = { status: number; json: any; headers: Headers };

const { call, token, env } = await nodeHelpers();
const { teamMemoryCount } = memoryToolsOver(env);

async function rpc(method: string, params: unknown, bearer?: string, httpMethod = "POST"): Promise<Rpc> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await call(httpMethod, "/mcp", {
    headers,
    ...(httpMethod === "POST" ? { body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) } : {}),
  });
  return { status: res.status, json: res.text ? JSON.parse(res.text) : undefined, headers: res.headers };
}

const callTool = (name: string, args: unknown, bearer: string) => rpc("tools/call", { name, arguments: args }, bearer);
const decide = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };

describe("POST /mcp auth", () => {
  it("refuses a call without credentials with 401 and a JSON-RPC error, never data", async () => {
    const r = await rpc("tools/list", {});
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toContain("Bearer");
    expect(r.json.error.message).toContain("missing bearer token");
    expect(r.json.result).toBeUndefined();
  });

  it("refuses a forged token", async () => {
    const forged = `${(await token("team-m1")).slice(0, -4)}AAAA`;
    const r = await rpc("tools/list", {}, forged);
    expect(r.status).toBe(401);
  });

  it("accepts a team API key, exchanged in place with the key's subject and scopes", async () => {
    const created = await call("POST", "/v1/keys", {
      token: await token("team-m2"),
      body: { subject: "agent:mcp-1", scopes: ["policy:decide"] },
    });
    expect(created.status).toBe(201);
    const r = await callTool("policy_decide", decide, created.json.key);
    expect(r.status).toBe(200);
    expect(r.json.result.isError).toBeUndefined();
    expect(r.json.result.structuredContent).toMatchObject({ action: "retry", profile: { team_id: "team-m2" } });
    const refused = await callTool("memory_query", { namespaces: ["team/team-m2/org"], text: "x" }, created.json.key);
    expect(refused.json.result.isError).toBe(true);
    expect(refused.json.result.content[0].text).toContain("forbidden: token lacks scope memory:read");
  });

  it("refuses a revoked API key and the tokens minted from it", async () => {
    const admin = await token("team-m8");
    const created = await call("POST", "/v1/keys", {
      token: admin,
      body: { subject: "agent:mcp-2", scopes: ["policy:decide"] },
    });
    expect((await callTool("policy_decide", decide, created.json.key)).status).toBe(200);
    const minted = await call("POST", "/v1/tokens", { headers: { authorization: `Bearer ${created.json.key}` } });
    expect(minted.status).toBe(200);
    expect((await call("DELETE", `/v1/keys/${created.json.id}`, { token: admin })).status).toBe(200);
    for (const bearer of [created.json.key, minted.json.token]) {
      const r = await callTool("policy_decide", decide, bearer);
      expect(r.status).toBe(401);
      expect(r.json.result).toBeUndefined();
    }
  });

  it("answers GET and DELETE with 405: the server is stateless", async () => {
    const bearer = await token("team-m1");
    for (const m of ["GET", "DELETE"]) {
      const r = await rpc("", null, bearer, m);
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
    }
  });
});

describe("tools/call", () => {
  it("answers policy_decide with the route's JSON and a one-line summary", async () => {
    const bearer = await token("team-m3");
    const r = await callTool("policy_decide", decide, bearer);
    const route = await call("POST", "/v1/policy/decide", { token: bearer, body: decide });
    const { decision_id: _a, ...viaMcp } = r.json.result.structuredContent;
    const { decision_id: _b, ...viaRoute } = route.json;
    expect(viaMcp).toEqual(viaRoute);
    const [summary, json] = r.json.result.content[0].text.split("\n");
    expect(summary).toMatch(/^retry \(rule enforce\.vibe_fail\.middle, mode enforce, decision \S+\)$/);
    expect(JSON.parse(json)).toEqual(r.json.result.structuredContent);
  });

  it("answers invalid arguments with invalid-params naming every failing path", async () => {
    const bearer = await token("team-m3");
    const r = await callTool("heartbeat", { run_id: "", order_id: "o1", epoch: 0, bogus: 1 }, bearer);
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.message).toContain("run_id:");
    expect(r.json.error.message).toContain("epoch:");
    expect(r.json.error.message).toContain("lease_id:");
    expect(r.json.error.message).toContain("bogus");
    const unknown = await callTool("no_such_tool", {}, bearer);
    expect(unknown.json.error.code).toBe(-32602);
  });

  it("refuses a memory write holding a secret with the rule ids, never the value, and stores nothing", async () => {
    const bearer = await token("team-m4");
    const secret = "AKIAZ7Q3XK2LMNP4RS5T";
    const before = await teamMemoryCount("team-m4");
    const r = await callTool(
      "memory_write",
      { namespace: "team/team-m4/org/notes", class: "kb", text: `rotate the key ${secret} tonight` },
      bearer,
    );
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result.structuredContent.error.code).toBe("redaction_required");
    expect(r.json.result.structuredContent.error.details.rule_ids.length).toBeGreaterThan(0);
    expect(JSON.stringify(r.json)).not.toContain(secret);
    const after = await teamMemoryCount("team-m4");
    expect(after).toBe(before);
  });

  it("starts a declared graph with run_new_graph, shows it on the board, and lease_next hands out the ready item", async () => {
    const bearer = await token("team-m9");
    const item = workItem;
    const started = await callTool(
      "run_new_graph",
      { goal: "graph over mcp", items: [item("a"), item("b", ["a"])] },
      bearer,
    );
    const runId = started.json.result.structuredContent.run_id;
    expect(runId).toMatch(/^run_/);
    const board = await callTool("board", {}, bearer);
    expect(board.json.result.isError).toBeFalsy();
    expect(board.json.result.structuredContent).toMatchObject({ ready: 1, waiting: 1, leased: 0 });
    const leased = await callTool("lease_next", { worker_id: "w-mcp" }, bearer);
    expect(leased.json.result.structuredContent).toMatchObject({ run_id: runId, order_id: "a" });
    // another team's board is its own
    const other = await callTool("board", {}, await token("team-m10"));
    expect(other.json.result.structuredContent).toMatchObject({ ready: 0, waiting: 0, leased: 0 });
  });

  it("answers another team's run id with not_found", async () => {
    const started = await callTool("run_start", { goal: "mcp test run" }, await token("team-m5"));
    const runId = started.json.result.structuredContent.run_id;
    expect(runId).toMatch(/^run_/);
    const own = await callTool("run_status", { run_id: runId }, await token("team-m5"));
    expect(own.json.result.structuredContent).toMatchObject({ run_id: runId, status: "PENDING" });
    const other = await callTool("run_status", { run_id: runId }, await token("team-m6"));
    expect(other.json.result.isError).toBe(true);
    expect(other.json.result.structuredContent.error.code).toBe("not_found");
    expect(JSON.stringify(other.json)).not.toContain("mcp test run");
  });

  it("writes one audit row per call with the route, outcome and request id", async () => {
    const bearer = await token("team-m7");
    await callTool("policy_decide", decide, bearer);
    await callTool("run_status", { run_id: "run_nope" }, bearer);
    // rows are batched (≤ 200 ms) after the answers, in the request's waitUntil (awaited by call); read through
    // GET /v1/audit, ordered as the SELECT was (by time, then tool)
    const res = await call("GET", "/v1/audit?type=mcp.tool_called&limit=100", {
      token: await token("team-m7", ["runs:read"]),
    });
    expect(res.status, res.text).toBe(200);
    const rows: { at: string; subject_id: string; actor: string; metadata: Record<string, unknown> }[] =
      res.json.entries;
    rows.sort((a, b) => a.at.localeCompare(b.at) || a.subject_id.localeCompare(b.subject_id));
    const got: Record<string, unknown>[] = rows.map((r) => ({ tool: r.subject_id, actor: r.actor, ...r.metadata }));
    expect(got).toEqual([
      expect.objectContaining({
        tool: "policy_decide",
        actor: "user-team-m7",
        route: "POST /v1/policy/decide",
        outcome: "ok",
      }),
      expect.objectContaining({
        tool: "run_status",
        route: "GET /v1/runs/{run_id}",
        outcome: "not_found",
        run_id: "run_nope",
      }),
    ]);
    expect(got[0]?.request_id).toMatch(/^req_/);
  });
});
