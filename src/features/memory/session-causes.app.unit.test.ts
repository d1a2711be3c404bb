// Why a route failed, over HTTP in Node (D1 and team object stand-ins): failure_cause and episode_index are validated
// and stored, and steer what is offered.
import { describe, expect, it } from "vitest";
import { createMemoryDecisionObjects } from "../../../test/fakes/node-stand-ins";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { mintToken } from "../../auth/mint";

const { env, freshTeam, memoryHarness } = await nodeMemoryTools();
/** every session episode the team's memory store holds, oldest first */
const sessionEvents = (h: ReturnType<typeof memoryHarness>, team: string) =>
  h.deps.memoryStore.sessionEventsForFingerprints(team, null, 1_000);

const FP = "d4".repeat(16);
const FP2 = "e5".repeat(16);

const episode = (over: Record<string, unknown>) => ({
  schema: "phase_memory.ops_warden.session_event.v1",
  session_kind: "warden.worker",
  command: "warden route",
  outcome: "resolved",
  need_fingerprint: FP,
  route_id: "route.a",
  agent_id: "worker-1",
  session_id: "s-0",
  diagnostic_codes: [],
  ...over,
});

async function setup() {
  // GET /v1/metrics reads the decision log's bucket too: its Node stand-in
  const h = memoryHarness({ decisionObjects: createMemoryDecisionObjects() });
  const team = freshTeam();
  const token = await mintToken({
    secret: env.WARDEN_JWT_SECRET,
    teamId: team,
    scopes: ["memory:read", "memory:write", "events:write", "runs:read"],
    sub: `u-${team}`,
  });
  const post = async (over: Record<string, unknown>, status = 201) => {
    h.advance(1_000);
    const res = await h.call("POST", "/v1/sessions/events", { token, body: episode(over) });
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    return res.json;
  };
  const activate = async (need = FP) => {
    const res = await h.call("POST", "/v1/memory/activate", {
      token,
      body: { session_kind: "warden.worker", need_fingerprint: need },
    });
    expect(res.status).toBe(200);
    return res.json as { activation_id: string; covered_route: string | null };
  };
  const metrics = async () => (await h.call("GET", "/v1/metrics?window=1h", { token })).json;
  /** a session's episodes as stored, by episode_index */
  const stored = async (session: string) => ({
    results: (await sessionEvents(h, team))
      .filter((e) => e.sessionId === session)
      .sort((a, b) => (a.episodeIndex ?? 0) - (b.episodeIndex ?? 0))
      .map((e) => ({
        route_id: e.routeId,
        failure_cause: e.failureCause ?? null,
        episode_index: e.episodeIndex ?? null,
        offered_route_id: e.offeredRouteId ?? null,
      })),
  });
  return { h, post, activate, metrics, stored, team };
}

describe("session_event.v1 failure_cause and episode_index", () => {
  it("are in the OpenAPI document's SessionEventV1", async () => {
    const doc = (await memoryHarness().call("GET", "/openapi.json")).json as {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[]; maximum?: number }> }> };
    };
    const props = doc.components.schemas.SessionEventV1?.properties ?? {};
    expect(props.failure_cause?.enum).toEqual(["route", "environment", "unknown"]);
    expect(props.episode_index?.maximum).toBe(63);
  });

  it("refuses a cause on an episode that did not escalate, and an index out of range, storing nothing", async () => {
    const { h, post, team } = await setup();
    const bad = await post({ outcome: "resolved", failure_cause: "route" }, 400);
    expect(bad.error.code).toBe("validation_failed");
    expect(bad.error.message).toContain("failure_cause");
    await post({ outcome: "escalated", failure_cause: "weather" }, 400);
    await post({ episode_index: 64 }, 400);
    await post({ episode_index: -1 }, 400);
    expect(await sessionEvents(h, team)).toHaveLength(0);
  });

  it("noise keeps a route on offer and counts as avoided; a route-caused failure stops it and is one stale serve", async () => {
    const { post, activate, metrics, stored } = await setup();
    for (const s of ["h1", "h2", "h3"]) await post({ session_id: s });
    const first = await activate();
    expect(first.covered_route).toBe("route.a");
    await post({
      session_id: "noisy",
      outcome: "escalated",
      failure_cause: "environment",
      activation_id: first.activation_id,
      route_source: "memory",
    });
    const second = await activate();
    expect(second.covered_route).toBe("route.a"); // the environment failed, not the route
    // tried the offer, it failed for the route, then the agent reasoned out route.b (episodes 0 and 1)
    const drift = { session_id: "drift", activation_id: second.activation_id };
    await post({ ...drift, route_id: "route.b", route_source: "reasoned", episode_index: 1 });
    await post({ ...drift, outcome: "escalated", failure_cause: "route", route_source: "memory", episode_index: 0 });
    expect((await stored("drift")).results).toEqual([
      { route_id: "route.a", failure_cause: "route", episode_index: 0, offered_route_id: "route.a" },
      { route_id: "route.b", failure_cause: null, episode_index: 1, offered_route_id: "route.a" },
    ]);
    expect((await activate()).covered_route).toBeNull(); // route.a blocked, route.b not yet confident
    expect(await metrics()).toMatchObject({
      routes_served: 2,
      llm_calls_avoided_count: 1, // the noisy session: the call was avoided though the environment failed it
      routing_repeat_accuracy: 0.5,
      stale_serves: 1,
    });
  });

  it("two offers ignored in a row for another route stop the offer until it resolves again", async () => {
    const { post, activate } = await setup();
    for (let i = 0; i < 15; i++) await post({ need_fingerprint: FP2, route_id: "route.old", session_id: `p${i}` });
    for (const s of ["i1", "i2"]) {
      const offer = await activate(FP2);
      expect(offer.covered_route).toBe("route.old");
      await post({ need_fingerprint: FP2, route_id: "route.new", session_id: s, activation_id: offer.activation_id });
    }
    // route.old is blocked; route.new, two resolutions on a reliable team's prior, is offered instead
    expect((await activate(FP2)).covered_route).toBe("route.new");
    await post({ need_fingerprint: FP2, route_id: "route.old", session_id: "back" });
    expect((await activate(FP2)).covered_route).toBe("route.old");
  });
});
