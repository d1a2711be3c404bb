// The pure steps of recording a session episode: guarded fields, the stored row, the refusal event.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InternalEvent } from "../../../contracts/internal-events";
import type { SessionEventV1 } from "../../../contracts/session-event.v1";
import { guardedSessionFields, sessionEventRow, sessionRefusedEvent } from "./session-episode";

const episode = (over: Partial<SessionEventV1> = {}): SessionEventV1 => ({
  session_kind: "warden.worker",
  command: "deploy --canary",
  outcome: "resolved",
  need_fingerprint: "sha256:ABCDEF0123456789",
  route_id: "route-a",
  agent_id: "agent-1",
  session_id: "s-1",
  diagnostic_codes: ["E1", "E2"],
  ...over,
});

describe("session episode steps", () => {
  it("the guard sees every free-text value by its body path, each diagnostic code on its own", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 32 }), (codes) => {
        const fields = guardedSessionFields(episode({ diagnostic_codes: codes }));
        expect(fields.map((f) => f.path)).toEqual([
          "command",
          "route_id",
          "agent_id",
          "session_id",
          ...codes.map((_, i) => `diagnostic_codes[${i}]`),
        ]);
        expect(fields.slice(4).map((f) => f.value)).toEqual(codes);
      }),
    );
  });

  it("stores the fingerprint normalized (lower case, no sha256: prefix) and absent links as null", () => {
    const row = sessionEventRow(episode(), { id: "sev_1", teamId: "t", offeredRouteId: null }, 42);
    expect(row).toMatchObject({
      id: "sev_1",
      teamId: "t",
      needFingerprint: "abcdef0123456789",
      diagnosticCodes: ["E1", "E2"],
      activationId: null,
      routeSource: null,
      failureCause: null,
      episodeIndex: null,
      offeredRouteId: null,
      createdAt: 42,
    });
    const linked = sessionEventRow(
      episode({
        activation_id: "act_1",
        route_source: "memory",
        outcome: "escalated",
        failure_cause: "route",
        episode_index: 1,
      }),
      { id: "sev_2", teamId: "t", offeredRouteId: "r.offered" },
      42,
    );
    expect(linked).toMatchObject({
      activationId: "act_1",
      routeSource: "memory",
      failureCause: "route",
      episodeIndex: 1,
      offeredRouteId: "r.offered",
    });
  });

  it("the refusal event is a valid memory_store_failed with rule ids and no value of the episode", () => {
    const refused = episode({ command: "curl https://secret.example/?token=abc" });
    const event = sessionRefusedEvent(
      { teamId: "t" },
      refused,
      { ok: false, code: "redaction_required", ruleIds: ["url.raw"], paths: ["command"], hits: [] },
      "evt_1",
      7,
    );
    expect(InternalEvent.safeParse(event).success).toBe(true);
    expect(event).toMatchObject({ type: "memory_store_failed", run_id: null, source: "sessions.events" });
    expect(JSON.stringify(event)).not.toContain("secret.example");
    const inRun = sessionRefusedEvent(
      { teamId: "t", runId: "run_1" },
      refused,
      { ok: false, code: "pii_detected", ruleIds: ["pii.email"], paths: [], hits: [] },
      "evt_2",
      7,
    );
    expect(inRun).toMatchObject({ run_id: "run_1", code: "pii_detected", rule_ids: ["pii.email"] });
  });
});
