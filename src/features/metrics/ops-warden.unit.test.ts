// ops-warden metrics over linked sessions: served routes, avoided calls, accuracy, stale serves, continuity; percentiles.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { judgeServed, opsWardenMetrics, percentile, replaySessions, type ServedSessionRow } from "./ops-warden";

let n = 0;
const ev = (
  fp: string,
  kind: string,
  route: string,
  outcome: string,
  at: number,
  over: Partial<ServedSessionRow> = {},
): ServedSessionRow => ({
  id: `e${++n}`,
  session_id: `s${n}`,
  session_kind: kind,
  outcome,
  need_fingerprint: fp,
  route_id: route,
  route_source: null,
  activation_id: null,
  served_route_id: null,
  activation_found: false,
  created_at: at,
  ...over,
});
const served = (route: string, extra: Partial<ServedSessionRow> = {}) => ({
  activation_id: `act-${n}`,
  served_route_id: route,
  activation_found: true,
  ...extra,
});

describe("opsWardenMetrics", () => {
  it("counts only what memory served: avoided, accuracy, stale serves, continuity", () => {
    const W = "warden.worker";
    const A = "warden.agent.claude";
    const mem = { route_source: "memory" };
    const rows = [
      ev("a", W, "r1", "resolved", 1), // history
      ev("a", W, "r1", "resolved", 2),
      ev("a", W, "r1", "resolved", 3),
      ev("a", W, "r1", "resolved", 10), // repeat, reasoned out (no activation): not avoided
      ev("a", A, "r1", "resolved", 11, served("r1", mem)), // served, right, cross-runtime: avoided
      ev("a", W, "r1", "resolved", 12, served("r1", { route_source: "reasoned" })), // right but thought out again
      ev("a", W, "r1", "escalated", 13, served("r1", mem)), // cause not given: a stale serve
      ev("a", W, "r2", "resolved", 14, served("r1")), // offer ignored, resolved on r2: not right, not stale
      ev("b", W, "r9", "resolved", 15), // first resolution: not a repeat
      ev("a", W, "r1", "escalated", 16, served("r1", { ...mem, failure_cause: "environment" })), // noise: right
    ];
    expect(opsWardenMetrics(rows, 5)).toEqual({
      sessions: 7,
      repeats: 6,
      served: 5,
      llm_calls_avoided_count: 2,
      routing_repeat_accuracy: 0.6,
      stale_serves: 1,
      cross_runtime_repeats: 2, // t=11 (worker → claude) and t=12 (claude → worker)
      cross_runtime_continuity: 1,
    });
  });

  it("judges a session by all its episodes, in episode order: tried → failed for the route → fallback resolved", () => {
    const W = "warden.worker";
    const session = (id: string, over: Partial<ServedSessionRow>) => ({ session_id: id, ...served("r1"), ...over });
    const rows = [
      ...[1, 2, 3].map((t) => ev("a", W, "r1", "resolved", t)),
      // posted out of order in one millisecond: episode_index puts the failure first
      ev("a", W, "r2", "resolved", 10, session("x", { route_source: "reasoned", episode_index: 1 })),
      ev(
        "a",
        W,
        "r1",
        "escalated",
        10,
        session("x", { route_source: "memory", failure_cause: "route", episode_index: 0 }),
      ),
      // tried twice, failed twice for the route: two stale serves in one session
      ev("a", W, "r1", "escalated", 20, session("y", { route_source: "memory", episode_index: 0 })),
      ev(
        "a",
        W,
        "r1",
        "escalated",
        21,
        session("y", { route_source: "memory", failure_cause: "unknown", episode_index: 1 }),
      ),
    ];
    const sessions = replaySessions(rows, 5);
    expect(sessions[0]?.last).toMatchObject({ route_id: "r2", outcome: "resolved" });
    expect(sessions[0]?.episodes.map((e) => e.episode_index)).toEqual([0, 1]);
    expect(opsWardenMetrics(rows, 5)).toMatchObject({
      served: 2,
      llm_calls_avoided_count: 0,
      routing_repeat_accuracy: 0,
      stale_serves: 3,
    });
  });

  it("docs/learning.md's worked example: 5 served, 3 stale, 2 avoided, accuracy 0.4", () => {
    const W = "warden.worker";
    const sess = (id: string, over: Partial<ServedSessionRow>) => ({ session_id: id, ...served("r1"), ...over });
    const mem = { route_source: "memory" };
    const rows = [
      ...[1, 2, 3].map((t) => ev("a", W, "r1", "resolved", t)),
      ev("a", W, "r1", "resolved", 10, sess("S1", mem)),
      ev("a", W, "r1", "escalated", 11, sess("S2", { ...mem, failure_cause: "environment" })),
      ev("a", W, "r1", "escalated", 12, sess("S3", { ...mem, failure_cause: "route", episode_index: 0 })),
      ev("a", W, "r2", "resolved", 13, sess("S3", { route_source: "reasoned", episode_index: 1 })),
      ev("a", W, "r2", "resolved", 14, sess("S4", { route_source: "reasoned" })),
      ev("a", W, "r1", "escalated", 15, sess("S5", { ...mem, episode_index: 0 })),
      ev("a", W, "r1", "escalated", 16, sess("S5", { ...mem, failure_cause: "unknown", episode_index: 1 })),
    ];
    expect(opsWardenMetrics(rows, 5)).toMatchObject({
      served: 5,
      stale_serves: 3,
      llm_calls_avoided_count: 2,
      routing_repeat_accuracy: 0.4,
    });
  });

  it("counts a session posted three times once, with its latest outcome", () => {
    const rows = [
      ev("a", "warden.worker", "r", "resolved", 1),
      ...[10, 11, 12].map((t) =>
        ev("a", "warden.worker", "r", "resolved", t, {
          session_id: "same",
          ...served("r", { activation_id: "x", route_source: "memory" }),
        }),
      ),
    ];
    expect(opsWardenMetrics(rows, 5)).toMatchObject({
      sessions: 1,
      served: 1,
      llm_calls_avoided_count: 1,
      routing_repeat_accuracy: 1,
    });
  });

  it("has no ratio without served routes", () => {
    expect(opsWardenMetrics([ev("a", "warden.worker", "r", "resolved", 1)], 0)).toMatchObject({
      served: 0,
      routing_repeat_accuracy: null,
      cross_runtime_continuity: null,
    });
  });

  const rowArb = fc.record({
    fp: fc.constantFrom("a", "b", "c"),
    kind: fc.constantFrom("warden.worker", "warden.operator"),
    route: fc.constantFrom("r1", "r2"),
    outcome: fc.constantFrom("resolved", "escalated", "skipped"),
    session: fc.integer({ min: 0, max: 12 }),
    servedRoute: fc.option(fc.constantFrom("r1", "r2"), { nil: null }),
    source: fc.constantFrom(null, "memory", "reasoned"),
    cause: fc.constantFrom(null, "route", "environment", "unknown"),
    index: fc.option(fc.nat(3), { nil: null }),
  });
  type Gen = Array<{
    fp: string;
    kind: string;
    route: string;
    outcome: string;
    session: number;
    servedRoute: string | null;
    source: string | null;
    cause: string | null;
    index: number | null;
  }>;
  const toRows = (xs: Gen) =>
    xs.map((x, i) =>
      ev(x.fp, x.kind, x.route, x.outcome, i, {
        session_id: `s${x.session}`,
        route_source: x.source,
        failure_cause: x.outcome === "escalated" ? x.cause : null,
        episode_index: x.index,
        served_route_id: x.servedRoute,
        activation_found: x.servedRoute !== null,
        activation_id: x.servedRoute === null ? null : `act${x.session}`,
      }),
    );

  it("property: avoided ≤ right ≤ served ≤ sessions, stale ≤ escalated episodes, ratios in [0, 1]", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 60 }), fc.integer({ min: 0, max: 60 }), (xs, since) => {
        const rows = toRows(xs);
        const m = opsWardenMetrics(rows, since);
        const right = m.routing_repeat_accuracy === null ? 0 : Math.round(m.routing_repeat_accuracy * m.served);
        expect(m.llm_calls_avoided_count).toBeLessThanOrEqual(right);
        expect(m.served).toBeLessThanOrEqual(m.sessions);
        expect(right).toBeLessThanOrEqual(m.served);
        const failures = rows.filter((r) => r.outcome === "escalated" && r.failure_cause !== "environment");
        expect(m.stale_serves).toBeLessThanOrEqual(failures.length);
        expect(m.repeats).toBeLessThanOrEqual(m.sessions);
        for (const r of [m.routing_repeat_accuracy, m.cross_runtime_continuity])
          if (r !== null) expect(r >= 0 && r <= 1).toBe(true);
      }),
    );
  });

  it("property: posting every episode again (a retried POST) changes no figure", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 40 }), (xs) => {
        const rows = toRows(xs);
        const doubled = rows.flatMap((r) => [r, { ...r, id: `${r.id}-again` }]);
        expect(opsWardenMetrics(doubled, 0)).toEqual(opsWardenMetrics(rows, 0));
      }),
    );
  });
});

describe("percentile", () => {
  it("is nearest-rank, null when empty", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 95)).toBe(4);
  });
});

describe("the steps of opsWardenMetrics", () => {
  const W = "warden.worker";
  const A = "warden.agent.claude";

  it("replaySessions: one session per (session_id, need) from its first episode in the window; earlier rows are history", () => {
    const rows = [
      ev("a", W, "r1", "resolved", 1, { session_id: "old" }),
      ev("a", W, "r1", "escalated", 10, { session_id: "x" }),
      ev("a", A, "r1", "resolved", 11, { session_id: "x", ...served("r1") }),
      ev("b", W, "r2", "resolved", 12, { session_id: "x" }),
      ev("a", W, "r1", "resolved", 13, { session_id: "old" }), // counted from its first episode in the window
    ];
    const sessions = replaySessions(rows, 5);
    expect(sessions.map((s) => [s.first.session_id, s.first.need_fingerprint])).toEqual([
      ["x", "a"],
      ["x", "b"],
      ["old", "a"],
    ]);
    expect(sessions[2]?.first.created_at).toBe(13);
    expect(sessions[0]).toMatchObject({ served: "r1", repeat: true, priorKind: W });
    expect(sessions[0]?.first.created_at).toBe(10);
    expect(sessions[0]?.last.created_at).toBe(11);
    expect(sessions[1]).toMatchObject({ served: null, repeat: false, priorKind: null });
  });

  it("replaySessions: every session is counted once, whatever its number of episodes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ sid: fc.constantFrom("s1", "s2", "s3"), fp: fc.constantFrom("a", "b") }), {
          maxLength: 30,
        }),
        (picks) => {
          const rows = picks.map((p, i) => ev(p.fp, W, "r", "resolved", i, { session_id: p.sid }));
          const distinct = new Set(picks.map((p) => `${p.sid}/${p.fp}`));
          expect(replaySessions(rows, 0)).toHaveLength(distinct.size);
        },
      ),
    );
  });

  it("judgeServed: right when the served route worked (noise aside); avoided only when taken from memory", () => {
    const session = (episodes: ServedSessionRow[], priorKind: string | null) => ({
      first: episodes[0] as ServedSessionRow,
      last: episodes.at(-1) as ServedSessionRow,
      episodes,
      served: "r1",
      repeat: true,
      priorKind,
    });
    const mem = { route_source: "memory" };
    expect(judgeServed(session([ev("a", W, "r1", "resolved", 1, mem)], W))).toEqual({
      right: true,
      avoided: true,
      stale: 0,
      cross: false,
    });
    expect(judgeServed(session([ev("a", W, "r1", "resolved", 1, { route_source: "reasoned" })], A))).toEqual({
      right: true,
      avoided: false,
      stale: 0,
      cross: true,
    });
    const noise = ev("a", W, "r1", "escalated", 1, { ...mem, failure_cause: "environment" });
    expect(judgeServed(session([noise], W))).toMatchObject({ right: true, avoided: true, stale: 0 });
    expect(judgeServed(session([ev("a", W, "r2", "resolved", 1)], null))).toMatchObject({ right: false, cross: false });
    expect(judgeServed(session([ev("a", W, "r1", "escalated", 1, mem)], W))).toMatchObject({
      right: false,
      avoided: false,
      stale: 1,
    });
    expect(judgeServed(session([ev("a", W, "r1", "skipped", 1, mem)], W))).toMatchObject({
      right: false,
      avoided: false,
    });
  });
});
