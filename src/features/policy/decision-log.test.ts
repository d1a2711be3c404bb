// The decision log written from the deciding isolate: POST /v1/policy/decide's decisions reach policy_decision in one
// D1 batch per group without the EVENTS queue; a group D1 refuses goes to EVENTS instead; a group both refuse rejects.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apiRequest, readResponse, token } from "../../../test/helpers";
import { rows } from "../../../test/learning";
import { makeDeps } from "../../deps";
import type { EventBus, WardenEvent } from "../../ports/event-bus";
import type { PolicyStore } from "../../ports/policy-store";
import { createDecisionLogWriter } from "./decision-log";

const decideBody = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };

function capturingBus(fail = false) {
  const sent: WardenEvent[] = [];
  const bus: EventBus = {
    publish: async (events) => {
      if (fail) throw new Error("queue unavailable");
      sent.push(...events);
    },
  };
  return { sent, bus };
}

/** Decides `n` times through the app with these deps, then waits for the request's deferred work (the log write). */
async function decideMany(deps: ReturnType<typeof makeDeps>, teamId: string, n: number): Promise<string[]> {
  const { createApp } = await import("../../app");
  const app = createApp();
  const t = await token(teamId);
  const ctx = createExecutionContext();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await readResponse(
      await app.fetch(apiRequest("POST", "/v1/policy/decide", { token: t, body: decideBody }), { deps }, ctx),
    );
    expect(res.status).toBe(200);
    ids.push(res.json.decision_id);
  }
  await waitOnExecutionContext(ctx);
  return ids;
}

describe("decision log writer", () => {
  it("writes decided decisions to policy_decision with their digest, sending nothing to EVENTS", async () => {
    const queue = capturingBus();
    const deps = makeDeps(env, { events: queue.bus });
    const ids = await decideMany(deps, "team-dlog-direct", 3);
    const logged = await rows<{ decision_id: string; inputs_digest: string; selected_action: string }>(
      "SELECT decision_id, inputs_digest, selected_action FROM policy_decision WHERE team_id = ? ORDER BY decision_id",
      "team-dlog-direct",
    );
    expect(logged.map((r) => r.decision_id)).toEqual([...ids].sort());
    for (const r of logged) {
      expect(r.inputs_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(r.selected_action).toBe("retry");
    }
    expect(queue.sent).toEqual([]);
  });

  it("sends a group D1 refuses to EVENTS as policy.decided events, for the consumer to write", async () => {
    const queue = capturingBus();
    const real = makeDeps(env).policyStore;
    const policyStore: PolicyStore = {
      ...real,
      recordDecisions: async () => {
        throw new Error("D1 unavailable");
      },
    };
    const deps = makeDeps(env, { events: queue.bus, policyStore });
    const ids = await decideMany(deps, "team-dlog-fallback", 2);
    expect(queue.sent.map((e) => e.event_id).sort()).toEqual([...ids].sort());
    expect(queue.sent.every((e) => e.type === "policy.decided" && e.team_id === "team-dlog-fallback")).toBe(true);
    const logged = await rows("SELECT decision_id FROM policy_decision WHERE team_id = ?", "team-dlog-fallback");
    expect(logged).toEqual([]);
  });

  it("rejects when both D1 and EVENTS refuse, so the caller logs the lost group", async () => {
    const policyStore = {
      recordDecisions: async () => {
        throw new Error("D1 unavailable");
      },
    } as unknown as PolicyStore;
    const writer = createDecisionLogWriter(policyStore, capturingBus(true).bus);
    const event = {
      event_id: "dec_x",
      type: "policy.decided",
      team_id: "t",
      occurred_at: 0,
      decision: { decision_id: "dec_x", inputs: {} },
    } as WardenEvent;
    await expect(writer.publish([event])).rejects.toThrow("queue unavailable");
  });
});
