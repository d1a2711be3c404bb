// The alert coalescing core: one group per (team, kind, window), each id counted once, whatever the order or repeats;
// the message per group keyed by window with its count as version; which events raise which kind.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALERT_KINDS } from "../../lib/alert-kinds";
import { ALERT_WINDOW_MS, alertKey, alertMessage, alertsOfEvent, coalesceAlerts, windowStartOf } from "./alerts";
import type { AlertOccurrence } from "./store/slack-feed-store-port";

const occurrence = fc.record({
  id: fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"),
  team_id: fc.constantFrom("t1", "t2"),
  kind: fc.constantFrom(...ALERT_KINDS),
  at: fc.integer({ min: 0, max: 4 * ALERT_WINDOW_MS }),
  detail: fc.string({ maxLength: 20 }),
});
/** ids decide identity: the same id always carries the same facts (as an event id does) */
const occurrences = fc.array(occurrence, { maxLength: 40 }).map((list) => {
  const first = new Map<string, AlertOccurrence>();
  for (const o of list) if (!first.has(o.id)) first.set(o.id, o);
  return list.map((o) => first.get(o.id) as AlertOccurrence);
});
const groupKey = (o: { team_id: string; kind: string; window_start: number }) =>
  `${o.team_id}|${o.kind}|${o.window_start}`;
const summary = (list: AlertOccurrence[]) =>
  new Map(coalesceAlerts(list).map((g) => [groupKey(g), g.occurrences.map((o) => o.id).sort()]));

describe("coalesceAlerts (properties)", () => {
  it("gives one group per distinct (team, kind, window) and counts each id once", () => {
    fc.assert(
      fc.property(occurrences, (list) => {
        const groups = coalesceAlerts(list);
        const expected = new Set(list.map((o) => groupKey({ ...o, window_start: windowStartOf(o.at) })));
        expect(new Set(groups.map(groupKey))).toEqual(expected);
        expect(groups).toHaveLength(expected.size);
        const ids = groups.flatMap((g) => g.occurrences.map((o) => o.id));
        expect(ids.length).toBe(new Set(list.map((o) => o.id)).size);
        expect(new Set(ids).size).toBe(ids.length);
      }),
    );
  });

  it("puts every occurrence in the window that contains its time", () => {
    fc.assert(
      fc.property(occurrences, fc.integer({ min: 1, max: 10 * ALERT_WINDOW_MS }), (list, windowMs) => {
        for (const g of coalesceAlerts(list, windowMs)) {
          expect(g.window_start % windowMs).toBe(0);
          for (const o of g.occurrences) {
            expect(o.at).toBeGreaterThanOrEqual(g.window_start);
            expect(o.at).toBeLessThan(g.window_start + windowMs);
          }
        }
      }),
    );
  });

  it("does not depend on arrival order, and a redelivered batch changes nothing", () => {
    fc.assert(
      fc.property(
        occurrences.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length }))),
        ([list, shuffled]) => {
          expect(summary(shuffled)).toEqual(summary(list));
          expect(summary([...list, ...shuffled])).toEqual(summary(list));
        },
      ),
    );
  });
});

describe("alertMessage", () => {
  it("keys the message by team, kind and window, with the window's count as its version, in the ops channel", () => {
    const at = Date.UTC(2026, 0, 1, 12, 7);
    const [group] = coalesceAlerts([
      { id: "x", team_id: "t1", kind: "budget_breach", at, detail: "run `r1` order `o1`" },
    ]);
    if (!group) throw new Error("no group");
    const m = alertMessage(group, 3);
    expect(m).toMatchObject({
      kind: "post",
      channel: "ops",
      key: alertKey("t1", "budget_breach", Date.UTC(2026, 0, 1, 12, 0)),
      version: 3,
    });
    expect(m.text).toContain("*Budget breaches*: 3 in 12:00–12:15 UTC");
    expect(m.text).toContain("Latest: run `r1` order `o1`");
  });
});

describe("alertsOfEvent", () => {
  const base = { event_id: "e1", team_id: "t1", occurred_at: 1000, run_id: "r1", order_id: "o1" };
  const kinds = (e: Record<string, unknown>) => alertsOfEvent({ ...base, ...e } as never).map((o) => o.kind);

  it("raises the kind of each producer and nothing for ordinary events", () => {
    expect(
      kinds({ type: "policy.rollback", trigger_id: "t", metric: "m", value: 0.5, sample: 9, threshold: ">0.2" }),
    ).toEqual(["rollback_demotion"]);
    expect(kinds({ type: "task.failed", failure_class: "budget_exceeded", next: "retry" })).toEqual(["budget_breach"]);
    expect(kinds({ type: "task.failed", failure_class: "budget_exceeded", next: "dead_letter" })).toEqual([
      "budget_breach",
      "dead_letters",
    ]);
    expect(kinds({ type: "task.failed", failure_class: "timeout", next: "dead_letter" })).toEqual(["dead_letters"]);
    expect(kinds({ type: "gate.decided", kind: "soft", channel: "timer", outcome: "timed_out" })).toEqual([
      "soft_gate_timeout",
    ]);
    expect(kinds({ type: "gate.decided", kind: "soft", channel: "slack", outcome: "approved" })).toEqual([]);
    expect(kinds({ type: "gate.decided", kind: "hard", channel: "api", outcome: "denied" })).toEqual([]);
    expect(kinds({ type: "task.failed", failure_class: "timeout", next: "retry" })).toEqual([]);
    expect(kinds({ type: "task.completed" })).toEqual([]);
  });

  it("names each occurrence by its event, so a redelivered event is the same occurrence", () => {
    const e = { ...base, type: "task.failed", failure_class: "budget_exceeded", next: "retry" };
    expect(alertsOfEvent(e).map((o) => o.id)).toEqual(alertsOfEvent({ ...e }).map((o) => o.id));
    expect(alertsOfEvent(e)[0]?.id).toContain("e1");
  });
});
