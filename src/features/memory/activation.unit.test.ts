// RouteBook properties: one route's escalation leaves siblings alone, a drifted route is served at most once, confidence
// and evidence against decide what is offered, retried POSTs change nothing, retired/pinned overrides hold.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EVIDENCE_WINDOW, RouteBook, type RouteEvent, stabilizedRoutes } from "./activation";
import { routeConfidence, teamPrior } from "./route-confidence";

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

  it("a well-proven route recovers after one fresh resolution, a young one needs more", () => {
    const proven = Array.from({ length: 15 }, (_, i) => e("old", "resolved", `p${i}`));
    const book = bookOf([...proven, e("old", "escalated", "drift?")]);
    expect(book.served("n")).toBeUndefined(); // blocked until it resolves again
    book.apply(e("old", "resolved", "fresh-1"));
    expect(book.served("n")).toMatchObject({ route_id: "old", resolved_count: 16, lifetime_resolved: 16 });

    const young = bookOf([...[0, 1, 2].map((i) => e("new", "resolved", `y${i}`)), e("new", "escalated", "x")]);
    young.apply(e("new", "resolved", "f1"));
    expect(young.served("n")).toBeUndefined(); // 4 resolutions and a failure: not confident yet
  });

  it("a new team's route is served after three resolutions; with a reliable team's history after two, never one", () => {
    const two = [e("r", "resolved", "a"), e("r", "resolved", "b")];
    expect(bookOf(two).served("n")).toBeUndefined();
    expect(bookOf([...two, e("r", "resolved", "c")]).served("n")?.route_id).toBe("r");
    const reliable = { resolved: 400, failed: 4 };
    const withHistory = (events: RouteEvent[]) => {
      const b = new RouteBook([], reliable);
      for (const x of events) b.apply(x);
      return b;
    };
    expect(withHistory(two).served("n")?.route_id).toBe("r");
    expect(withHistory(two.slice(0, 1)).served("n")).toBeUndefined();
    const certain = new RouteBook([], { resolved: 1_000_000, failed: 0 });
    certain.apply(e("r", "resolved", "a"));
    expect(certain.served("n")).toBeUndefined();
  });

  it("an escalation caused by the environment is no evidence against the route", () => {
    const three = [0, 1, 2].map((i) => e("r", "resolved", `s${i}`));
    const book = bookOf([...three, { ...e("r", "escalated", "noise"), failureCause: "environment" }]);
    expect(book.served("n")).toMatchObject({ route_id: "r", resolved_count: 3 });
    const routeCaused = bookOf([...three, { ...e("r", "escalated", "wrong"), failureCause: "route" }]);
    expect(routeCaused.served("n")).toBeUndefined();
  });

  it("two ignored offers in a row (another route resolved right after) stop the offer until it resolves again", () => {
    const proven = Array.from({ length: 15 }, (_, i) => e("old", "resolved", `p${i}`));
    const ignored = (s: string): RouteEvent => ({ ...e("new", "resolved", s), offeredRouteId: "old" });
    const book = bookOf([...proven, ignored("i1")]);
    expect(book.served("n")?.route_id).toBe("old"); // one is not enough
    book.apply(ignored("i2"));
    expect(book.served("n")?.route_id).not.toBe("old");
    book.apply(e("old", "resolved", "back"));
    expect(book.served("n")?.route_id).toBe("old");
  });

  it("one ignored offer stops a route that failed for its own cause in its window; a tried offer is no evidence", () => {
    const proven = Array.from({ length: 15 }, (_, i) => e("old", "resolved", `p${i}`));
    const book = bookOf([...proven, e("old", "escalated", "x"), e("old", "resolved", "again")]);
    expect(book.served("n")?.route_id).toBe("old");
    // tried the offer, it failed, then resolved on another route: the failure is the evidence, counted once
    const tried = bookOf([
      ...proven,
      e("old", "escalated", "t"),
      { ...e("new", "resolved", "t"), offeredRouteId: "old" },
    ]);
    tried.apply(e("old", "resolved", "again"));
    expect(tried.served("n")?.route_id).toBe("old");
    book.apply({ ...e("new", "resolved", "i1"), offeredRouteId: "old" });
    expect(book.served("n")?.route_id).not.toBe("old");
  });

  it("property: another resolution never lowers a route's confidence; a route-caused failure asks for more", () => {
    const counts = fc.record({ resolved: fc.nat(40), failed: fc.nat(10) });
    fc.assert(
      fc.property(counts, counts, (evidence, team) => {
        const prior = teamPrior(team);
        const more = { ...evidence, resolved: evidence.resolved + 1 };
        expect(routeConfidence(more, prior)).toBeGreaterThanOrEqual(routeConfidence(evidence, prior) - 1e-12);
        const failedOnce = { ...evidence, failed: evidence.failed + 1 };
        expect(routeConfidence(failedOnce, prior)).toBeLessThanOrEqual(routeConfidence(evidence, prior) + 1e-12);
      }),
    );
  });

  it("property: a route with a route-caused failure in its window needs more resolutions to be served", () => {
    /** resolutions in the window when the route is first served (after the failure, when there is one) */
    const resolutionsToServe = (team: { resolved: number; failed: number }, failAfter: number | null) => {
      const book = new RouteBook([], team);
      for (let i = 1; i <= EVIDENCE_WINDOW; i++) {
        book.apply(e("r", "resolved", `s${i}`));
        if (failAfter === i) book.apply({ ...e("r", "escalated", "bad"), failureCause: "route" });
        if ((failAfter === null || i > failAfter) && book.served("n")) return i;
      }
      return Number.POSITIVE_INFINITY;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.record({ resolved: fc.nat(500), failed: fc.nat(50) }),
        (failAfter, team) => {
          expect(resolutionsToServe(team, failAfter)).toBeGreaterThan(resolutionsToServe(team, null));
        },
      ),
    );
  });

  it("keeps needs apart: an escalation on one need leaves another need's route served", () => {
    const a = [0, 1, 2].map((i) => e("r", "resolved", `a${i}`, i, "A"));
    const book = bookOf([...a, e("r", "escalated", "b", 9, "B")]);
    expect(book.served("A")?.route_id).toBe("r");
  });
});
