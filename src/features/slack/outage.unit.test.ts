// The approval outage's pure parts: the two-person rule of the override, when the fallback is in force, which gates
// it denies, the bounded alert text and the response_url limit.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fallbackDeniesIndexed, outageFallbackInForce } from "../gates/domain";
import { OVERRIDE_REQUEST_VALID_MS, outageOverText, overrideStep } from "./outage";
import { responseUrlUsable } from "./outbox";
import type { ApprovalOutage, OutageOverride } from "./store/slack-store-port";

const REQ = { reason: "why", ttl_ms: 60 * 60_000 };
const outageAt = (since: number, override: OutageOverride | null = null): ApprovalOutage => ({ since, override });

/** plays admin calls through overrideStep as the route stores them; answers every step */
function play(calls: { subject: string; at: number }[]) {
  let outage = outageAt(0);
  return calls.map((c) => {
    const step = overrideStep(outage, c.subject, REQ, c.at);
    if (step.kind === "request" || step.kind === "confirm") outage = outageAt(0, step.next);
    return step;
  });
}

describe("overrideStep (two-person rule)", () => {
  it("refuses without an outage", () => {
    expect(overrideStep(null, "ann", REQ, 1)).toMatchObject({ kind: "refuse", error: { code: "conflict" } });
  });

  it("confirms only with a second, different admin within the request's validity", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ subject: fc.constantFrom("ann", "ben", "cy"), gap: fc.integer({ min: 0, max: 20 * 60_000 }) }),
          { minLength: 1, maxLength: 12 },
        ),
        (raw) => {
          const calls = raw.map((c, i) => ({
            subject: c.subject,
            at: 1_000 + raw.slice(0, i + 1).reduce((sum, r) => sum + r.gap, 0),
          }));
          const steps = play(calls);
          let pending: { by: string; at: number } | null = null;
          let activeUntil = -1;
          steps.forEach((step, i) => {
            const c = calls[i] as { subject: string; at: number };
            if (activeUntil > c.at) {
              expect(step.kind).toBe("active");
              return;
            }
            if (pending && c.at - pending.at < OVERRIDE_REQUEST_VALID_MS) {
              if (pending.by === c.subject) {
                expect(step.kind).toBe("refuse");
              } else {
                expect(step).toMatchObject({
                  kind: "confirm",
                  next: { requested_by: pending.by, confirmed_by: c.subject },
                });
                activeUntil = c.at + REQ.ttl_ms;
                pending = null;
              }
              return;
            }
            expect(step).toMatchObject({ kind: "request", next: { requested_by: c.subject, confirmed_by: null } });
            pending = { by: c.subject, at: c.at };
          });
          // whatever the order, nobody confirms their own request
          for (const s of steps) if (s.kind === "confirm") expect(s.next.confirmed_by).not.toBe(s.next.requested_by);
        },
      ),
    );
  });

  it("tells the same admin that a second, different admin must confirm", () => {
    const [, again] = play([
      { subject: "ann", at: 1 },
      { subject: "ann", at: 2 },
    ]);
    expect(again).toMatchObject({ kind: "refuse", error: { code: "conflict" } });
    expect(again?.kind === "refuse" && again.error.code === "conflict" && again.error.message).toContain(
      "second, different admin",
    );
  });
});

describe("outageFallbackInForce", () => {
  it("is on during an outage unless a confirmed override has not expired", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.option(fc.integer({ min: 0, max: 1e9 })), (now, until) => {
        const override: OutageOverride | null =
          until === null
            ? null
            : { requested_by: "a", requested_at: 0, reason: "r", ttl_ms: 1, confirmed_by: "b", until };
        expect(outageFallbackInForce(outageAt(0, override), now)).toBe(until === null || until <= now);
        expect(outageFallbackInForce(null, now)).toBe(false);
      }),
    );
  });

  it("stays on while an override is only requested", () => {
    const pending = { requested_by: "a", requested_at: 0, reason: "r", ttl_ms: 1, confirmed_by: null, until: null };
    expect(outageFallbackInForce(outageAt(0, pending), 5)).toBe(true);
  });
});

describe("fallbackDeniesIndexed", () => {
  it("denies pending hard gates but not soft, decided or deploy gates", () => {
    const row = (kind: string, status: string, policy_key: string) => ({ kind, status, policy_key });
    expect(fallbackDeniesIndexed(row("hard", "pending", "wrong_value"))).toBe(true);
    expect(fallbackDeniesIndexed(row("soft", "pending", "schema_invalid"))).toBe(false);
    expect(fallbackDeniesIndexed(row("hard", "denied", "wrong_value"))).toBe(false);
    expect(fallbackDeniesIndexed(row("hard", "pending", "policy_deploy"))).toBe(false);
    expect(fallbackDeniesIndexed(row("hard", "pending", "slack_channel_change"))).toBe(false);
  });
});

describe("outageOverText", () => {
  it("counts every denied gate and lists the ones given, saying how many more there are", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 20 }), (count, listed) => {
        const shown = Math.min(count, listed);
        const gates = Array.from({ length: shown }, (_, i) => ({
          run_id: `run_${i}`,
          gate_id: `gate_${i}`,
          policy_key: "wrong_value",
          denied_at: i,
        }));
        const text = outageOverText(0, 60_000, { count, gates });
        if (count === 0) expect(text).toContain("No gate was denied");
        else expect(text).toContain(`${count} gate(s)`);
        for (const g of gates) expect(text).toContain(g.gate_id);
        expect(text.includes("more")).toBe(count > shown);
      }),
    );
  });
});

describe("responseUrlUsable", () => {
  it("allows 5 uses within 30 minutes of the first", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 3_600_000 }), (uses, age) => {
        expect(responseUrlUsable({ uses, first_used_at: 0 }, age)).toBe(uses <= 5 && age < 30 * 60_000);
      }),
    );
  });
});
