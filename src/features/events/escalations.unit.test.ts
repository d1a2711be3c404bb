// Escalations (pure): one audit row per event whatever happens, a ping only for gates nobody acknowledged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InternalEvent } from "../../../contracts/internal-events";
import { planEscalations } from "./escalations";

const event = (gate: string, n: number) =>
  ({
    event_id: `e-${gate}-${n}`,
    type: "gate.escalated",
    team_id: "t",
    run_id: "r",
    occurred_at: 1000 + n,
    gate_id: gate,
    level: (n % 2) + 1,
  }) as unknown as InternalEvent;

const ack = { acked_by: "alice", acked_at: 5, opened_at: 1, policy_key: "wrong_value", kind: "hard" };

describe("planEscalations", () => {
  it("audits every escalation and pings exactly the gates without an acknowledgement", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("g1", "g2", "g3"), { maxLength: 12 }),
        fc.subarray(["g1", "g2", "g3"]),
        (gates, acked) => {
          const events = gates.map((g, i) => event(g, i));
          const acks = new Map(acked.map((g) => [g, ack]));
          const { audit, ping } = planEscalations(events, acks);
          expect(audit).toHaveLength(events.length);
          expect(new Set(audit.map((a) => a.id)).size).toBe(events.length);
          expect(ping.map((e) => e.event_id)).toEqual(
            events.filter((e) => !acked.includes((e as { gate_id?: string }).gate_id ?? "")).map((e) => e.event_id),
          );
          for (const a of audit) expect(a.metadata?.pinged).toBe(!acked.includes(a.subjectId));
        },
      ),
    );
  });

  it("pings an acknowledged gate again once its resolve SLA is due, and only then", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 2000 }), (n, due) => {
        const e = event("g1", n);
        const { audit, ping } = planEscalations([e], new Map([["g1", ack]]), new Map([["g1", due]]));
        expect(ping).toHaveLength(e.occurred_at >= due ? 1 : 0);
        expect(audit[0]?.metadata).toMatchObject({ pinged: e.occurred_at >= due, resolve_due_at: due });
      }),
    );
  });
});
