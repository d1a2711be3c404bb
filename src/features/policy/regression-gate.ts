// evaluation_trend_regression_gate, pure: the baseline and candidate windows' metrics, and whether the candidate regressed.

import type { ServedSessionRow } from "../memory/domain";
import { opsWardenMetrics } from "../metrics";
import type { LoggedDecision } from "./store/policy-store-port";

/** The metrics the gate compares: the same formulas GET /v1/metrics reports (docs/learning.md). */
export const TREND_METRICS = [
  "escalation_rate",
  "unknown_failure_class_ratio",
  "routing_repeat_accuracy",
  "stale_serve_rate",
] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

/** A window's value of each metric; null when the window holds too few samples to judge it. */
export type TrendWindow = Record<TrendMetric, number | null>;

/** higher is worse for rates of failure; lower is worse for accuracy */
const WORSE_WHEN_HIGHER: Record<TrendMetric, boolean> = {
  escalation_rate: true,
  unknown_failure_class_ratio: true,
  routing_repeat_accuracy: false,
  stale_serve_rate: true,
};

/** How far (absolute, in the metric's own unit) the candidate may be worse than the baseline before it regresses. */
export type TrendThresholds = Record<TrendMetric, number>;
export const DEFAULT_TREND_THRESHOLDS: TrendThresholds = {
  escalation_rate: 0.05,
  unknown_failure_class_ratio: 0.05,
  routing_repeat_accuracy: 0.05,
  stale_serve_rate: 0.05,
};

export type Regression = { metric: TrendMetric; baseline: number; candidate: number; threshold: number };
export type TrendVerdict = { ok: true } | { ok: false; regressions: Regression[] };

/**
 * A metric regresses when both windows have a value and the candidate is worse than the baseline by strictly more
 * than its threshold. A metric either window cannot judge (null) never regresses: no evidence is not bad evidence.
 */
export function compareTrend(
  baseline: TrendWindow,
  candidate: TrendWindow,
  thresholds: TrendThresholds = DEFAULT_TREND_THRESHOLDS,
): TrendVerdict {
  const regressions: Regression[] = [];
  for (const metric of TREND_METRICS) {
    const b = baseline[metric];
    const c = candidate[metric];
    if (b === null || c === null) continue;
    const worseBy = WORSE_WHEN_HIGHER[metric] ? c - b : b - c;
    if (worseBy > thresholds[metric])
      regressions.push({ metric, baseline: b, candidate: c, threshold: thresholds[metric] });
  }
  return regressions.length === 0 ? { ok: true } : { ok: false, regressions };
}

/** The window length: the candidate is the last TREND_WINDOW_MS, the baseline the TREND_WINDOW_MS before it. */
export const TREND_WINDOW_MS = 7 * 86_400_000;
/** fewest decisions (for the decision rates) and served sessions (for the routing rates) a window needs */
export const TREND_MIN_SAMPLE = { decisions: 20, served: 10 } as const;

export type TrendWindows = {
  baseline: TrendWindow & { from: number; to: number; decisions: number; served: number };
  candidate: TrendWindow & { from: number; to: number; decisions: number; served: number };
};

/**
 * The two windows' metrics, from the decision log and the session episodes (both oldest first, reaching back to at
 * least `now - 2 × windowMs`; session rows before that only establish routing history, as in GET /v1/metrics).
 * Decision rates are over `selected_action`/`rule_id` of logged decisions, the formulas of the rollback matrix.
 */
export function trendWindows(
  decisions: readonly LoggedDecision[],
  sessions: readonly ServedSessionRow[],
  now: number,
  windowMs = TREND_WINDOW_MS,
  minSample = TREND_MIN_SAMPLE,
): TrendWindows {
  const split = now - windowMs;
  const start = split - windowMs;
  const window = (from: number, to: number) => {
    const inWindow = decisions.filter((d) => d.created_at >= from && d.created_at < to);
    const n = inWindow.length;
    const enough = n >= minSample.decisions;
    const rate = (pred: (d: LoggedDecision) => boolean) => (enough ? inWindow.filter(pred).length / n : null);
    // opsWardenMetrics counts sessions from `from` on; cutting rows at `to` ends the window
    const ops = opsWardenMetrics(
      sessions.filter((r) => r.created_at < to),
      from,
    );
    const served = ops.served >= minSample.served;
    return {
      from,
      to,
      decisions: n,
      served: ops.served,
      escalation_rate: rate((d) => d.selected_action === "escalate"),
      unknown_failure_class_ratio: rate((d) => d.rule_id === "default.unknown_failure_class"),
      routing_repeat_accuracy: served ? ops.routing_repeat_accuracy : null,
      stale_serve_rate: served ? ops.stale_serves / ops.served : null,
    };
  };
  return { baseline: window(start, split), candidate: window(split, now) };
}
