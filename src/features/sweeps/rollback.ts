// The rollback matrix, pure: lookback windows, threshold expressions, metrics from decision counts, target modes.
import type { MemrlMode, RollbackTrigger } from "../../../contracts/memrl-policy";
import type { DecisionCounts } from "../../ports/decision-log";

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
/** Teams are looked up over this long, so a window may not be longer. */
export const MAX_WINDOW_MS = 30 * 86_400_000;

/** "24h", "48h", "7d", "90m", "2w" → milliseconds; null when unreadable, zero, or over 30 days. */
export function parseWindow(text: string): number | null {
  const m = /^\s*(\d{1,6})\s*([mhdw])\s*$/i.exec(text);
  if (!m) return null;
  const ms = Number(m[1]) * (UNIT_MS[(m[2] as string).toLowerCase()] as number);
  return ms > 0 && ms <= MAX_WINDOW_MS ? ms : null;
}

export type Comparison = ">" | ">=" | "<" | "<=";
export type Threshold = { metric: string; op: Comparison; value: number };

/** "escalation_rate > 0.35", "missing_metadata_count >= 1" → its parts; null when it is not that shape. */
export function parseThreshold(text: string): Threshold | null {
  const m = /^\s*([a-z][a-z0-9_]*)\s*(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$/i.exec(text);
  if (!m) return null;
  return { metric: m[1] as string, op: m[2] as Comparison, value: Number(m[3]) };
}

export function breaches(value: number, t: Threshold): boolean {
  switch (t.op) {
    case ">":
      return value > t.value;
    case ">=":
      return value >= t.value;
    case "<":
      return value < t.value;
    case "<=":
      return value <= t.value;
  }
}

/** The metric over the window's decisions; null for a metric this evaluator does not know. */
export function metricValue(metric: string, c: DecisionCounts): number | null {
  switch (metric) {
    case "escalation_rate":
      return c.decisions === 0 ? 0 : c.escalations / c.decisions;
    case "unknown_failure_class_ratio":
      return c.decisions === 0 ? 0 : c.unknownClass / c.decisions;
    case "missing_metadata_count":
      return c.missingMetadata;
    default:
      return null;
  }
}

const RANK: Record<MemrlMode, number> = { off: 0, observe: 1, enforce: 2 };

/**
 * Where the operator action sends the ceiling: "off" or "observe" as words in its text (off when both appear);
 * one step down from `current` when it names neither. Never above `current`.
 */
export function targetMode(operatorAction: string, current: MemrlMode): MemrlMode {
  const off = /\boff\b/i.test(operatorAction);
  const observe = /\bobserve\b/i.test(operatorAction);
  const named: MemrlMode = off ? "off" : observe ? "observe" : current === "enforce" ? "observe" : "off";
  return RANK[named] < RANK[current] ? named : current;
}

export type TriggerResult = {
  trigger_id: string;
  metric: string;
  window: string;
  sample: number;
  min_sample_size: number;
  value: number | null;
  threshold: string;
  status: "breach" | "ok" | "insufficient_sample" | "invalid";
  reason?: string;
};

export function evaluateTrigger(trigger: RollbackTrigger, counts: DecisionCounts): TriggerResult {
  const base = {
    trigger_id: trigger.trigger_id,
    metric: trigger.metric,
    window: trigger.lookback_window,
    sample: counts.decisions,
    min_sample_size: trigger.min_sample_size,
    threshold: trigger.threshold,
  };
  const threshold = parseThreshold(trigger.threshold);
  if (!threshold)
    return { ...base, value: null, status: "invalid", reason: "threshold is not `<metric> <op> <number>`" };
  if (threshold.metric !== trigger.metric) {
    return {
      ...base,
      value: null,
      status: "invalid",
      reason: `threshold names ${threshold.metric}, not ${trigger.metric}`,
    };
  }
  const value = metricValue(trigger.metric, counts);
  if (value === null) return { ...base, value: null, status: "invalid", reason: `unknown metric ${trigger.metric}` };
  if (counts.decisions < trigger.min_sample_size) return { ...base, value, status: "insufficient_sample" };
  return { ...base, value, status: breaches(value, threshold) ? "breach" : "ok" };
}
