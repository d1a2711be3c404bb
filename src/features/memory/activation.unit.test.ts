// RouteBook properties: one route's escalation leaves siblings alone, a drifted route is served at most once, proven
// routes recover faster, retried POSTs change nothing, retired/pinned overrides hold.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROVEN_RECORD, RouteBook, type RouteEvent, stabilizedRoutes } from "./activation";

const e = (route: string, outcome: RouteEvent["outcome"], session: string, t = 0, need = "n"): RouteEvent => ({
  needFingerprint: need,
  routeId: route,
  sessionId: session,
  outcome,
  createdAt: t,
  sessionKind: "warden.worker",
});

const eventArb = fc
  .record({
    route: fc.constantFrom("r1", "r2", "r3"),
    outcome: fc.constantFrom<RouteEvent["outcome"]>("resolved", "resolved", "resolved", "escalated", "skipped"),
    session: fc.integer({ min: 0, max: 30 }),
  })
  .map((x, i = 0) => e(x.route, x.outcome, `s${x.session}`, i));

const bookOf = (events: RouteEvent[], overrides = [] as ConstructorParameters<typeof RouteBook>[0]) => {
  const b = new RouteBook(overrides);
  for (const ev of events) b.apply(ev);
  return b;
};

describe("RouteBook", () => {
  it("property: an escalation demotes the route that escalated, never a sibling", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), fc.constantFrom("r1", "r2", "r3"), (events, bad) => {
        const before = bookOf(events).served("n")?.route_id;
        const after = bookOf([...events, e(bad, "escalated", "esc-new")]).served("n")?.route_id;
        if (before !== undefined && before !== bad) expect(after).toBe(before);
        expect(after).not.toBe(bad);
      }),
    );
  });

  it("property: a route that drifted (every session on it escalates) is served at most once", () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 60 }),
        fc.array(fc.constantFrom("r2", "r3"), { minLength: 1, maxLength: 40 }),
        (history, reasoned) => {
          const book = bookOf(history);
          let servedDrifted = 0;
          reasoned.forEach((alt, i) => {
            const s = `after-${i}`;
            if (book.served("n")?.route_id === "r1") {
              servedDrifted += 1;
              book.apply(e("r1", "escalated", s));
            } else book.apply(e(alt, "resolved", s)); // reasoned out on a route that works
          });
          expect(servedDrifted).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it("property: posting every episode twice (retried POSTs) changes no standing", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), (events) => {
        expect(stabilizedRoutes(events.flatMap((x) => [x, x]))).toEqual(stabilizedRoutes(events));
      }),
    );
  });

  it("property: a retired route is never served, a pinned one always", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), (events) => {
        expect(
          bookOf(events, [{ needFingerprint: "n", routeId: "r1", state: "retired" }]).served("n")?.route_id,
        ).not.toBe("r1");
        const pinned = bookOf(events, [{ needFingerprint: "n", routeId: "r3", state: "pinned" }]).served("n");
        if (events.some((x) => x.routeId === "r3")) expect(pinned).toMatchObject({ route_id: "r3", pinned: true });
      }),
    );
  });

  it("a proven route recovers after one fresh resolution, a new route needs three", () => {
    const proven = Array.from({ length: PROVEN_RECORD }, (_, i) => e("old", "resolved", `p${i}`));
    const book = bookOf([...proven, e("old", "escalated", "noise")]);
    expect(book.served("n")).toBeUndefined();
    book.apply(e("old", "resolved", "fresh-1"));
    expect(book.served("n")).toMatchObject({ route_id: "old", resolved_count: 1, lifetime_resolved: 6 });

    const young = bookOf([...[0, 1, 2].map((i) => e("new", "resolved", `y${i}`)), e("new", "escalated", "noise")]);
    young.apply(e("new", "resolved", "f1"));
    young.apply(e("new", "resolved", "f2"));
    expect(young.served("n")).toBeUndefined();
    young.apply(e("new", "resolved", "f3"));
    expect(young.served("n")).toMatchObject({ route_id: "new", resolved_count: 3 });
  });

  it("a proven route that escalates twice in a row needs three fresh resolutions again", () => {
    const proven = Array.from({ length: PROVEN_RECORD }, (_, i) => e("old", "resolved", `p${i}`));
    const book = bookOf([...proven, e("old", "escalated", "x1"), e("old", "escalated", "x2")]);
    book.apply(e("old", "resolved", "f1"));
    expect(book.served("n")).toBeUndefined();
    book.apply(e("old", "resolved", "f2"));
    book.apply(e("old", "resolved", "f3"));
    expect(book.served("n")?.route_id).toBe("old");
  });

  it("keeps needs apart: an escalation on one need leaves another need's route served", () => {
    const a = [0, 1, 2].map((i) => e("r", "resolved", `a${i}`, i, "A"));
    const book = bookOf([...a, e("r", "escalated", "b", 9, "B")]);
    expect(book.served("A")?.route_id).toBe("r");
  });
});
