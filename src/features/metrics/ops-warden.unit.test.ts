// ops-warden metrics over session events: repeats, verified repeats, cross-runtime continuity; percentiles.
import { describe, expect, it } from "vitest";
import { opsWardenMetrics, percentile, type SessionRow } from "./ops-warden";

let n = 0;
const ev = (fp: string, kind: string, route: string, outcome: string, at: number): SessionRow => ({
  id: `s${++n}`,
  session_kind: kind,
  outcome,
  need_fingerprint: fp,
  route_id: route,
  created_at: at,
});

describe("opsWardenMetrics", () => {
  it("counts repeats of resolved needs, verified when resolved on the stabilized route", () => {
    const rows = [
      ev("a", "warden.worker", "r1", "resolved", 1), // history (before the window)
      ev("a", "warden.agent.claude", "r1", "resolved", 10), // cross-runtime, verified
      ev("a", "warden.agent.claude", "r2", "resolved", 11), // same runtime, other route: not verified
      ev("a", "warden.operator", "r2", "escalated", 12), // cross-runtime, not resolved
      ev("b", "warden.worker", "r9", "escalated", 13), // never resolved before: not a repeat
      ev("b", "warden.worker", "r9", "resolved", 14), // still not a repeat (no earlier resolution)
      ev("b", "warden.worker", "r9", "resolved", 15), // verified repeat
    ];
    expect(opsWardenMetrics(rows, 5)).toEqual({
      repeats: 4,
      llm_calls_avoided_count: 2,
      routing_repeat_accuracy: 0.5,
      cross_runtime_repeats: 2,
      cross_runtime_continuity: 0.5,
    });
  });

  it("has no ratio without repeats", () => {
    expect(opsWardenMetrics([ev("a", "warden.worker", "r", "resolved", 1)], 0)).toMatchObject({
      repeats: 0,
      routing_repeat_accuracy: null,
      cross_runtime_continuity: null,
    });
  });
});

describe("percentile", () => {
  it("is nearest-rank", () => {
    const xs = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    expect(percentile(xs, 50)).toBe(100);
    expect(percentile(xs, 95)).toBe(190);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });
});
