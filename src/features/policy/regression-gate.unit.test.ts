// evaluation_trend_regression_gate: the comparison's properties and the windows' formulas.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ServedSessionRow } from "../memory/store/route-ledger-port";
import {
  compareTrend,
  DEFAULT_TREND_THRESHOLDS,
  TREND_METRICS,
  type TrendMetric,
  type TrendThresholds,
  type TrendWindow,
  trendWindows,
} from "./regression-gate";
import type { LoggedDecision } from "./store/policy-store-port";

const rate = fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true }));
const windowArb: fc.Arbitrary<TrendWindow> = fc.record(
  Object.fromEntries(TREND_METRICS.map((m) => [m, rate])) as Record<TrendMetric, typeof rate>,
);
const thresholdsArb: fc.Arbitrary<TrendThresholds> = fc.record(
  Object.fromEntries(TREND_METRICS.map((m) => [m, fc.double({ min: 0, max: 0.5, noNaN: true })])) as Record<
    TrendMetric,
    fc.Arbitrary<number>
  >,
);
const higherIsWorse = (m: TrendMetric) => m !== "routing_repeat_accuracy";

describe("compareTrend", () => {
  it("identical windows never regress, whatever the thresholds", () => {
    fc.assert(
      fc.property(windowArb, thresholdsArb, (w, t) => {
        expect(compareTrend(w, { ...w }, t)).toEqual({ ok: true });
      }),
    );
  });

  it("a metric worse by more than its threshold always refuses, and names that metric", () => {
    fc.assert(
      fc.property(
        windowArb,
        fc.constantFrom(...TREND_METRICS),
        fc.double({ min: 0, max: 0.4, noNaN: true }),
        fc.double({ min: 0.3, max: 0.6, noNaN: true }),
        fc.double({ min: 1e-6, max: 0.3, noNaN: true }),
        (base, metric, threshold, b, excess) => {
          const worse = higherIsWorse(metric) ? b + threshold + excess : b - threshold - excess;
          const verdict = compareTrend(
            { ...base, [metric]: b },
            { ...base, [metric]: worse },
            { ...DEFAULT_TREND_THRESHOLDS, [metric]: threshold },
          );
          expect(verdict.ok).toBe(false);
          if (!verdict.ok)
            expect(verdict.regressions).toContainEqual({ metric, baseline: b, candidate: worse, threshold });
        },
      ),
    );
  });

  it("is monotone in the threshold: what a looser threshold refuses, a tighter one refuses too", () => {
    fc.assert(
      fc.property(windowArb, windowArb, thresholdsArb, thresholdsArb, (b, c, t1, t2) => {
        const tight = Object.fromEntries(TREND_METRICS.map((m) => [m, Math.min(t1[m], t2[m])])) as TrendThresholds;
        const loose = Object.fromEntries(TREND_METRICS.map((m) => [m, Math.max(t1[m], t2[m])])) as TrendThresholds;
        const names = (v: ReturnType<typeof compareTrend>) => (v.ok ? [] : v.regressions.map((r) => r.metric));
        const tightNames = names(compareTrend(b, c, tight));
        for (const m of names(compareTrend(b, c, loose))) expect(tightNames).toContain(m);
      }),
    );
  });

  it("an improvement or a null window never regresses", () => {
    expect(
      compareTrend(
        {
          escalation_rate: 0.5,
          unknown_failure_class_ratio: null,
          routing_repeat_accuracy: 0.5,
          stale_serve_rate: 0.4,
        },
        {
          escalation_rate: 0.1,
          unknown_failure_class_ratio: 0.9,
          routing_repeat_accuracy: 0.9,
          stale_serve_rate: null,
        },
      ),
    ).toEqual({ ok: true });
  });
});

const DAY = 86_400_000;
const NOW = 100 * DAY;
const decision = (i: number, createdAt: number, escalate: boolean): LoggedDecision =>
  ({
    decision_id: `dec_${i}`,
    created_at: createdAt,
    selected_action: escalate ? "escalate" : "retry",
    rule_id: escalate ? "default.unknown_failure_class" : "enforce.vibe_fail.middle",
  }) as LoggedDecision;
const session = (i: number, createdAt: number, outcome: string): ServedSessionRow => ({
  id: `ev_${i}`,
  session_id: `s_${i}`,
  session_kind: "codex",
  outcome,
  need_fingerprint: "need-a",
  route_id: "route-1",
  route_source: null,
  activation_id: `act_${i}`,
  served_route_id: "route-1",
  activation_found: true,
  created_at: createdAt,
});

describe("trendWindows", () => {
  it("splits the log at now − window: baseline the window before, candidate the latest", () => {
    // baseline: 20 decisions, 2 escalated; candidate: 20 decisions, 10 escalated; one decision older than both
    const log = [
      decision(0, NOW - 15 * DAY, true),
      ...Array.from({ length: 20 }, (_, i) => decision(100 + i, NOW - 10 * DAY + i, i < 2)),
      ...Array.from({ length: 20 }, (_, i) => decision(200 + i, NOW - 2 * DAY + i, i < 10)),
    ];
    const w = trendWindows(log, [], NOW);
    expect(w.baseline).toMatchObject({ from: NOW - 14 * DAY, to: NOW - 7 * DAY, decisions: 20, escalation_rate: 0.1 });
    expect(w.candidate).toMatchObject({ from: NOW - 7 * DAY, to: NOW, decisions: 20, escalation_rate: 0.5 });
    expect(w.candidate.unknown_failure_class_ratio).toBe(0.5);
    expect(w.baseline.routing_repeat_accuracy).toBeNull();
  });

  it("leaves a metric null below the minimum sample", () => {
    const w = trendWindows([decision(1, NOW - DAY, true)], [], NOW);
    expect(w.candidate).toMatchObject({ decisions: 1, escalation_rate: null, unknown_failure_class_ratio: null });
  });

  it("routing rates come from served sessions, each session in the window it began in", () => {
    const rows = [
      ...Array.from({ length: 10 }, (_, i) => session(i, NOW - 10 * DAY + i, "resolved")),
      ...Array.from({ length: 10 }, (_, i) => session(50 + i, NOW - DAY + i, i < 4 ? "escalated" : "resolved")),
    ];
    const w = trendWindows([], rows, NOW);
    expect(w.baseline).toMatchObject({ served: 10, routing_repeat_accuracy: 1, stale_serve_rate: 0 });
    expect(w.candidate).toMatchObject({ served: 10, routing_repeat_accuracy: 0.6, stale_serve_rate: 0.4 });
    const verdict = compareTrend(w.baseline, w.candidate);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok)
      expect(verdict.regressions.map((r) => r.metric).sort()).toEqual(["routing_repeat_accuracy", "stale_serve_rate"]);
  });
});
