// Session episodes and activation on a scripted ops-warden history: stabilized routes, escalation resets, filters, refusals
// (in Node: D1 and team object stand-ins; rows read back through the memory feature's drizzle tables).
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMemoryDecisionObjects } from "../../../test/fakes/node-stand-ins";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { tableRows } from "../../../test/node-d1/table-rows";
import { mintToken } from "../../auth/mint";
import type { Scope } from "../../auth/tokens";
import type { SessionEventRow } from "../../ports/memory-store";
import { stabilizedRoutes } from "./activation";
import { memActivations, sessionEvents } from "./store/tables";

const tools = await nodeMemoryTools();
const { env, freshTeam, teamMemoryCount } = tools;
/** the memory harness with the decision log's bucket stand-in (GET /v1/metrics reads it too) */
const memoryHarness = () => tools.memoryHarness({ decisionObjects: createMemoryDecisionObjects() });
/** no run outbox here: the rows are there once the request answered */
const recordRows = tableRows({ db: env.DB, drainAll: async () => {} });
/** a team's stored session episodes, of one session id when given */
const storedEpisodes = (team: string, sessionId?: string) =>
  recordRows(
    sessionEvents,
    and(eq(sessionEvents.teamId, team), sessionId ? eq(sessionEvents.sessionId, sessionId) : undefined),
  );

const tok = (
  teamId: string,
  scopes: Scope[] = ["memory:read", "memory:write", "events:write"],
  extra: { personaId?: string } = {},
) => mintToken({ secret: env.WARDEN_JWT_SECRET, teamId, scopes, sub: `u-${teamId}`, ...extra });

const FP_ROTATE = `sha256:${"a1".repeat(32)}`;
const FP_DISK = "b2".repeat(16);
const FP_NEW = "c3".repeat(16);

const ev = (over: Partial<Record<string, unknown>>) => ({
  schema: "phase_memory.ops_warden.session_event.v1",
  session_kind: "warden.worker",
  command: "warden route",
  outcome: "resolved",
  need_fingerprint: FP_ROTATE,
  route_id: "route.rotate-access",
  agent_id: "worker-1",
  session_id: "s-1",
  diagnostic_codes: [],
  ...over,
});

describe("stabilizedRoutes", () => {
  const row = (
    i: number,
    outcome: SessionEventRow["outcome"],
    routeId: string,
    fp = "f1",
    session = `s${i}`,
  ): SessionEventRow => ({
    id: `e${i}`,
    teamId: "t",
    sessionKind: "warden.worker",
    command: "c",
    outcome,
    needFingerprint: fp,
    routeId,
    agentId: "a",
    sessionId: session,
    diagnosticCodes: [],
    createdAt: i,
  });

  it("a new team needs 3 resolutions by the same route; an escalation blocks it; skips are ignored", () => {
    expect(stabilizedRoutes([row(1, "resolved", "r"), row(2, "resolved", "r")])).toEqual([]);
    expect(
      stabilizedRoutes([
        row(1, "resolved", "r"),
        row(2, "skipped", "r"),
        row(3, "resolved", "r"),
        row(4, "resolved", "r"),
      ]),
    ).toEqual([
      {
        need_fingerprint: "f1",
        route_id: "r",
        resolved_count: 3,
        last_resolved_at: 4,
        lifetime_resolved: 3,
        confidence: 0.7725, // three resolutions, no failure, a new team's prior (0.9): just over 0.76
        pinned: false,
      },
    ]);
    expect(
      stabilizedRoutes([
        row(1, "resolved", "r"),
        row(2, "resolved", "r"),
        row(3, "resolved", "r"),
        row(4, "escalated", "r"),
      ]),
    ).toEqual([]);
    expect(
      stabilizedRoutes([
        row(1, "resolved", "r"),
        row(2, "resolved", "q"),
        row(3, "resolved", "r"),
        row(4, "resolved", "q"),
      ]),
    ).toEqual([]);
  });

  it("counts a session once per route, so a retried POST does not stabilize a route", () => {
    const retried = [1, 2, 3].map((i) => row(i, "resolved", "r", "f1", "same-session"));
    expect(stabilizedRoutes(retried)).toEqual([]);
    expect(stabilizedRoutes([...retried, row(4, "resolved", "r"), row(5, "resolved", "r")])).toHaveLength(1);
  });

  it("keeps fingerprints apart and picks the strongest route", () => {
    const events = [
      ...[1, 2, 3].map((i) => row(i, "resolved", "r1", "f1")),
      ...[4, 5, 6, 7].map((i) => row(i, "resolved", "r2", "f1")),
      row(8, "escalated", "x", "f2"),
    ];
    expect(stabilizedRoutes(events)).toEqual([
      {
        need_fingerprint: "f1",
        route_id: "r2",
        resolved_count: 4,
        last_resolved_at: 7,
        lifetime_resolved: 4,
        confidence: 0.8049,
        pinned: false,
      },
    ]);
  });
});

describe("POST /v1/sessions/events and POST /v1/memory/activate", () => {
  it("activates from a scripted history: stabilized routes, filtered episodes, llm_calls_avoided", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    const post = async (over: Partial<Record<string, unknown>>) => {
      h.advance(60_000);
      const res = await h.call("POST", "/v1/sessions/events", { token: t, body: ev(over) });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return res.json.id as string;
    };
    // rotate-access: resolved twice; route.manual escalated once (which leaves rotate-access standing); rotate-access
    // then resolved 3× more by worker and agent sessions
    await post({});
    await post({ session_kind: "warden.operator", session_id: "s-2" });
    await post({ outcome: "escalated", route_id: "route.manual" });
    const activate = (body: Record<string, unknown>) => h.call("POST", "/v1/memory/activate", { token: t, body });
    let a = await activate({ session_kind: "warden.agent.claude", need_fingerprint: FP_ROTATE });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ stabilized_routes: [], llm_calls_avoided: 0, covered_route: null });
    await post({ session_id: "s-3" });
    await post({ session_kind: "warden.agent.claude", agent_id: "claude", session_id: "s-4" });
    await post({
      session_kind: "warden.agent.codex",
      agent_id: "codex",
      session_id: "s-5",
      diagnostic_codes: ["DTL-ROUTE-002"],
    });
    // disk: only two resolutions
    await post({ need_fingerprint: FP_DISK, route_id: "route.disk-cleanup" });
    await post({ need_fingerprint: FP_DISK, route_id: "route.disk-cleanup", outcome: "skipped" });
    await post({ need_fingerprint: FP_DISK, route_id: "route.disk-cleanup" });

    a = await activate({ session_kind: "warden.agent.claude", agent_id: "claude", need_fingerprint: FP_ROTATE });
    expect(a.json.stabilized_routes).toEqual([
      expect.objectContaining({
        need_fingerprint: "a1".repeat(32),
        route_id: "route.rotate-access",
        resolved_count: 5,
      }),
    ]);
    expect(a.json.llm_calls_avoided).toBe(1);
    expect(a.json.covered_route).toBe("route.rotate-access");
    // recent episodes: this session kind and this need only, newest first
    expect(a.json.recent_episodes.map((e: any) => [e.session_kind, e.session_id])).toEqual([
      ["warden.agent.claude", "s-4"],
    ]);

    const worker = await activate({ session_kind: "warden.worker", need_fingerprint: FP_ROTATE });
    expect(worker.json.llm_calls_avoided).toBe(1); // a route stabilized across runtimes covers every session kind
    expect(worker.json.recent_episodes.map((e: any) => e.session_id)).toEqual(["s-3", "s-1", "s-1"]);
    expect(worker.json.recent_episodes[1].outcome).toBe("escalated");

    const disk = await activate({ session_kind: "warden.worker", need_fingerprint: FP_DISK });
    expect(disk.json).toMatchObject({ stabilized_routes: [], llm_calls_avoided: 0 });
    const fresh = await activate({ session_kind: "warden.operator", need_fingerprint: FP_NEW });
    expect(fresh.json).toMatchObject({ stabilized_routes: [], recent_episodes: [], llm_calls_avoided: 0 });
    // without a fingerprint: every stabilized route of the team, no LLM call counted
    const all = await activate({ session_kind: "warden.operator" });
    expect(all.json.stabilized_routes.map((r: any) => r.route_id)).toEqual(["route.rotate-access"]);
    expect(all.json.llm_calls_avoided).toBe(0);

    // an escalation after stabilization withdraws the route
    await post({ outcome: "escalated", session_id: "s-6" });
    a = await activate({ session_kind: "warden.agent.claude", need_fingerprint: FP_ROTATE });
    expect(a.json).toMatchObject({ stabilized_routes: [], llm_calls_avoided: 0 });

    const activations = await recordRows(memActivations, eq(memActivations.teamId, team), {
      n: memActivations.llmCallsAvoided,
    });
    const counted = { n: activations.reduce((sum, a) => sum + a.n, 0), c: activations.length };
    expect(counted).toEqual({ n: 2, c: 7 }); // the claude and the worker activation were covered
    // other teams see none of it
    const other = await h.call("POST", "/v1/memory/activate", {
      token: await tok(freshTeam()),
      body: { session_kind: "warden.worker", need_fingerprint: FP_ROTATE },
    });
    expect(other.json).toMatchObject({ stabilized_routes: [], recent_episodes: [], llm_calls_avoided: 0 });
  });

  it("links a session to its activation: served routes count in GET /v1/metrics; bad links are refused", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team, ["memory:read", "memory:write", "events:write", "runs:read"]);
    const post = async (over: Partial<Record<string, unknown>>, status = 201) => {
      h.advance(60_000);
      const res = await h.call("POST", "/v1/sessions/events", { token: t, body: ev(over) });
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      return res;
    };
    for (const s of ["s-1", "s-2", "s-3"]) await post({ session_id: s });
    const act = await h.call("POST", "/v1/memory/activate", {
      token: t,
      body: { session_kind: "warden.agent.claude", need_fingerprint: FP_ROTATE },
    });
    expect(act.json).toMatchObject({ covered_route: "route.rotate-access", activation_id: expect.any(String) });
    const id = act.json.activation_id as string;
    // the same session posted three times counts once
    for (let i = 0; i < 3; i++)
      await post({ session_id: "s-4", session_kind: "warden.agent.claude", activation_id: id, route_source: "memory" });
    const stale = await h.call("POST", "/v1/memory/activate", {
      token: t,
      body: { session_kind: "warden.worker", need_fingerprint: FP_ROTATE },
    });
    await post({ session_id: "s-5", outcome: "escalated", activation_id: stale.json.activation_id });
    const m = await h.call("GET", "/v1/metrics?window=1h", { token: t });
    expect(m.status).toBe(200);
    expect(m.json).toMatchObject({
      routes_served: 2,
      llm_calls_avoided_count: 1,
      routing_repeat_accuracy: 0.5,
      stale_serves: 1,
    });

    // an activation for another need, an unknown id, another team's id: 422, nothing stored
    const other = await h.call("POST", "/v1/memory/activate", {
      token: await tok(freshTeam()),
      body: { session_kind: "warden.worker", need_fingerprint: FP_ROTATE },
    });
    for (const bad of [
      { need_fingerprint: FP_DISK, activation_id: id },
      { activation_id: "act-nope" },
      { activation_id: other.json.activation_id },
    ]) {
      const res = await post({ session_id: "s-bad", ...bad }, 422);
      expect(res.json.error.code).toBe("rejected");
    }
    const badSource = await post({ route_source: "guessed" }, 400);
    expect(badSource.json.error.code).toBe("validation_failed");
    expect(await storedEpisodes(team, "s-bad")).toHaveLength(0);
  });

  it("returns hints for a query and rigid memory that was imported, never promoted from episodes", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team, ["memory:read", "memory:write", "events:write", "policy:admin"]);
    for (let i = 0; i < 5; i++) {
      await h.call("POST", "/v1/sessions/events", {
        token: t,
        body: ev({ session_id: `s${i}`, command: "warden access grant" }),
      });
    }
    await h.call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${team}/org`, class: "kb", text: "Access grants for contractors expire after 30 days" },
    });
    let a = await h.call("POST", "/v1/memory/activate", {
      token: t,
      body: { session_kind: "warden.operator", query: "contractor access grant" },
    });
    expect(a.json.hints[0]).toMatchObject({ class: "kb", namespace: `team/${team}/org` });
    expect(a.json.rigid).toEqual([]);
    const rigidCount = () => teamMemoryCount(team, "rigid");
    expect(await rigidCount()).toBe(0);
    await h.call("POST", "/v1/memory/import", {
      token: t,
      body: {
        namespace: `team/${team}/org/allowlist`,
        kind: "allowlist",
        entries: [{ text: "route.rotate-access may run unattended" }],
      },
    });
    a = await h.call("POST", "/v1/memory/activate", { token: t, body: { session_kind: "warden.operator" } });
    expect(a.json.rigid).toEqual([
      expect.objectContaining({ kind: "allowlist", text: "route.rotate-access may run unattended" }),
    ]);
    expect(await rigidCount()).toBe(1);
  });

  it.each([
    [
      "a token in the command",
      { command: "warden access grant --token xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx" },
      "redaction_required",
    ],
    ["a raw URL in a diagnostic code", { diagnostic_codes: ["https://status.acme.com/x"] }, "redaction_required"],
    ["an AWS key in the session id", { session_id: "AKIAZ52HGXYRN4WBTQ7X" }, "redaction_required"],
    ["an email as the agent id", { agent_id: "jane.doe@example.com" }, "pii_detected"],
  ])("refuses %s with 422 and stores nothing", async (_n, over, code) => {
    const h = memoryHarness();
    const team = freshTeam();
    const res = await h.call("POST", "/v1/sessions/events", { token: await tok(team), body: ev(over) });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe(code);
    expect(await storedEpisodes(team)).toHaveLength(0);
    expect(h.published).toEqual([
      expect.objectContaining({ type: "memory_store_failed", source: "sessions.events", code }),
    ]);
    expect(JSON.stringify(h.published) + h.logs.join("")).not.toMatch(/xoxb-|status\.acme|AKIAZ52|jane\.doe/);
  });

  it("answers malformed episodes and activations with 400, and missing scopes with 403", async () => {
    const h = memoryHarness();
    const team = freshTeam();
    const t = await tok(team);
    for (const over of [
      { session_kind: "worker" },
      { outcome: "done" },
      { need_fingerprint: "rotate the prod keys" },
      { diagnostic_codes: "x" },
      { extra: 1 },
    ]) {
      const res = await h.call("POST", "/v1/sessions/events", { token: t, body: ev(over) });
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
    }
    expect(
      (await h.call("POST", "/v1/memory/activate", { token: t, body: { session_kind: "warden.agent." } })).status,
    ).toBe(400);
    expect(
      (
        await h.call("POST", "/v1/memory/activate", {
          token: t,
          body: { session_kind: "warden.worker", need_fingerprint: "plain text need" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await h.call("POST", "/v1/memory/activate", {
          token: await tok(team, ["memory:write"]),
          body: { session_kind: "warden.worker" },
        })
      ).status,
    ).toBe(403);
    expect(
      (await h.call("POST", "/v1/sessions/events", { token: await tok(team, ["memory:read"]), body: ev({}) })).status,
    ).toBe(403);
    const leaky = await h.call("POST", "/v1/memory/activate", {
      token: t,
      body: { session_kind: "warden.worker", agent_id: "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
    });
    expect(leaky.status).toBe(422);
  });
});
