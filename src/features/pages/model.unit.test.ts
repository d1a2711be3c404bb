// The pages' pure read models: percentiles, the 7-day SLO series, the trace timeline, sparkline points, next actions.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  formatDuration,
  gateSteps,
  nextActionFor,
  overviewModel,
  percentile,
  sloSeries,
  sparkBars,
  sparkPoints,
  traceSteps,
} from "./model";

const NOW = 1_767_225_600_000;
const attempt = (endedAgoMs: number, latency: number, outcome = "PASS") => ({
  outcome,
  next: outcome === "PASS" ? "complete" : "retry",
  started_at: NOW - endedAgoMs - latency,
  ended_at: NOW - endedAgoMs,
});

describe("percentile", () => {
  it("takes the nearest rank and is null when there is nothing", () => {
    expect(percentile([], 95)).toBeNull();
    expect(percentile([5], 50)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
  });
});

describe("sloSeries", () => {
  it("computes p95, success and dead-letter rate in total and per day, oldest day first", () => {
    const attempts = [attempt(1000, 100), attempt(2000, 300, "ERROR"), attempt(3 * DAY_MS, 50), attempt(8 * DAY_MS, 9)];
    const { total, daily } = sloSeries(attempts, [NOW - 5000, NOW - 9 * DAY_MS], NOW);
    expect(total).toEqual({ steps: 3, step_p95_ms: 300, success_rate: 2 / 3, dead_letter_rate: 1 / 3 });
    expect(daily).toHaveLength(7);
    expect(daily[6]).toMatchObject({ steps: 2, step_p95_ms: 300, success_rate: 0.5, dead_letter_rate: 0.5 });
    expect(daily[4]).toMatchObject({ steps: 1, step_p95_ms: 50, success_rate: 1, dead_letter_rate: 0 });
    expect(daily[0]).toMatchObject({ steps: 0, step_p95_ms: null, success_rate: null, dead_letter_rate: null });
    expect(daily[0]?.day_start).toBe(NOW - 7 * DAY_MS);
  });

  it("ignores samples after now (clock skew) and gives nulls for an empty window", () => {
    const { total } = sloSeries([attempt(-5000, 10)], [], NOW);
    expect(total).toEqual({ steps: 0, step_p95_ms: null, success_rate: null, dead_letter_rate: null });
  });
});

describe("overviewModel", () => {
  it("adds human approval latency p50/p95 from unsorted samples", () => {
    const m = overviewModel(
      {
        runs: [],
        openGates: [],
        deadLetters: [],
        taskSpend: [],
        personaSpend: [],
        approvals: { auto: 1, human: 3, humanLatenciesMs: [3000, 1000, 2000] },
        attempts: [],
        deadLetterTimes: [],
        mode: { ceiling: "enforce", reason: null, updated_at: null },
        lastRollback: null,
      },
      NOW,
    );
    expect(m.humanLatency).toEqual({ p50: 2000, p95: 3000, samples: 3 });
    expect(m.slo.daily).toHaveLength(7);
  });
});

describe("traceSteps", () => {
  const view = (steps: Record<string, unknown>[]) => ({
    run_id: "r",
    status: "RUNNING",
    goal: "g",
    orders: [
      { order_id: "o1", task_id: "t1", skill: "extract" },
      { order_id: "o2", task_id: "t2" },
    ],
    steps,
  });
  const attempt = (op_id: string, order_id: string, holder: string | null, started_at: number, ended_at: number) => ({
    op_id,
    order_id,
    outcome: "ERROR",
    failure_class: "tool_error",
    next: "retry",
    holder,
    tokens_in: 3,
    tokens_out: 1,
    started_at,
    ended_at,
  });

  it("shows every recorded attempt (beyond the steps the run view keeps), names the agent by lease holder, keeps decisions", () => {
    const steps = traceSteps(
      view([
        {
          seq: 9,
          at: 350,
          order_id: "o2",
          task_id: "t2",
          op_id: "b",
          attempt: 2,
          outcome: "DECLINE",
          failure_class: "wrong_value",
          next: "dead_letter",
          holder: "worker-b",
          decision: {
            rule_id: "off.vibe_fail.initial",
            action: "retry",
            selected_action: "escalate",
            memrl_mode: "off",
          },
        },
        {
          seq: 10,
          at: 400,
          order_id: "o1",
          task_id: "t1",
          op_id: "lease:x",
          outcome: "LEASE_EXPIRED",
          next: "retry",
          holder: "worker-c",
        },
      ]),
      [attempt("a", "o1", "worker-a", 100, 250), { ...attempt("b", "o2", null, 300, 350), outcome: "DECLINE" }],
    );
    expect(steps.map((s) => s.agent)).toEqual(["worker-a", "worker-b", "worker-c"]);
    // the attempt the run view no longer keeps is still on the timeline, with its task from the order
    expect(steps[0]).toMatchObject({ task_id: "t1", latency_ms: 150, decision: null, tokens_in: 3 });
    expect(steps[1]).toMatchObject({ seq: 9, latency_ms: 50, decision: { rule_id: "off.vibe_fail.initial" } });
    expect(steps[2]).toMatchObject({ outcome: "LEASE_EXPIRED", latency_ms: null });
  });

  it("numbers every step and counts every try, also past the last 10 steps the run view keeps", () => {
    // 12 tries of one order, 3 of another, interleaved; the run view keeps the last 10 with their seq and try
    const rows = Array.from({ length: 15 }, (_, i) =>
      attempt(`op${i}`, i % 5 === 4 ? "o2" : "o1", "w", i * 100, i * 100 + 50),
    );
    const tryOf = (i: number) => rows.slice(0, i + 1).filter((r) => r.order_id === rows[i]?.order_id).length;
    const keptSteps = rows.slice(-10).map((r, k) => {
      const i = k + 5;
      return { seq: 100 + i, at: r.ended_at, order_id: r.order_id, op_id: r.op_id, attempt: tryOf(i) };
    });
    const steps = traceSteps(view(keptSteps), rows);
    expect(steps.map((s) => s.number)).toEqual(rows.map((_, i) => i + 1));
    expect(steps.map((s) => s.attempt)).toEqual(rows.map((_, i) => tryOf(i)));
    expect(steps.slice(0, 5).map((s) => s.seq)).toEqual([null, null, null, null, null]);
    expect(steps[5]?.seq).toBe(105);
  });

  it("keeps one step per attempt whatever the order, sorted by time", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ op: fc.string({ minLength: 1, maxLength: 6 }), end: fc.nat(10_000) }), {
          selector: (r) => r.op,
          maxLength: 40,
        }),
        (rows) => {
          const steps = traceSteps(
            view([]),
            rows.map((r) => attempt(r.op, "o1", "w", 0, r.end)),
          );
          expect(steps).toHaveLength(rows.length);
          expect(steps.map((s) => s.number)).toEqual(rows.map((_, i) => i + 1));
          expect(steps.map((s) => s.attempt).sort((a, b) => a - b)).toEqual(rows.map((_, i) => i + 1));
          for (let i = 1; i < steps.length; i++)
            expect(steps[i]?.at).toBeGreaterThanOrEqual(steps[i - 1]?.at as number);
        },
      ),
    );
  });
});

describe("gateSteps", () => {
  it("anchors every gate and links only those with a posted Slack card", () => {
    const steps = gateSteps(["g1", "g2"], [{ gate_id: "g2", workspace_id: "T1", channel: "C9", ts: "17.5" }]);
    expect(steps).toEqual([
      { gate_id: "g1", anchor: "gate-g1", slack_url: null },
      {
        gate_id: "g2",
        anchor: "gate-g2",
        slack_url: "https://slack.com/app_redirect?team=T1&channel=C9&message_ts=17.5",
      },
    ]);
  });
});

describe("sparkBars", () => {
  it("draws every day: one day with data among empty days is a bar in a 7-day row, not a lone dot", () => {
    const bars = sparkBars([null, null, null, null, null, null, 0.75], 140, 28);
    expect(bars).toHaveLength(7);
    expect(bars.filter((b) => b.empty)).toHaveLength(6);
    expect(bars[6]).toMatchObject({ empty: false, height: 28, y: 0 });
    expect(sparkBars([], 140, 28)).toEqual([]);
  });

  it("keeps proportions from zero, left to right, inside the box", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null }), { maxLength: 14 }),
        (values) => {
          const bars = sparkBars(values, 140, 28);
          expect(bars).toHaveLength(values.length);
          bars.forEach((b, i) => {
            expect(b.empty).toBe(values[i] === null);
            expect(b.y + b.height).toBeCloseTo(28);
            expect(b.height).toBeGreaterThanOrEqual(1);
            expect(b.height).toBeLessThanOrEqual(28);
            if (i > 0) expect(b.x).toBeGreaterThan(bars[i - 1]?.x as number);
          });
        },
      ),
    );
  });
});

describe("sparkPoints", () => {
  it("draws nothing without values, a flat line for equal values, and skips gaps", () => {
    expect(sparkPoints([null, null], 100, 20)).toBe("");
    expect(sparkPoints([3, 3], 100, 20)).toBe("0.0,10.0 100.0,10.0");
    expect(sparkPoints([0, null, 10], 100, 20)).toBe("0.0,20.0 100.0,0.0");
  });
});

describe("nextActionFor and formatDuration", () => {
  it("names a next action for every reason, escalations and unknown ones included", () => {
    expect(nextActionFor("wrong_value")).toContain("reissue");
    expect(nextActionFor("budget_exhausted")).toContain("budget");
    expect(nextActionFor("escalated:enforce.tool_error.final")).toContain("human");
    expect(nextActionFor("something-new")).toContain("reissue");
  });

  it("formats ages", () => {
    expect(formatDuration(42_000)).toBe("42s");
    expect(formatDuration(200_000)).toBe("3m 20s");
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000)).toBe("2h 5m");
    expect(formatDuration(3 * DAY_MS + 3_600_000)).toBe("3d 1h");
  });
});
