// The pure figures of GET /v1/metrics: gates and decisions, routing, rollbacks — each from the raw counters.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gateAndDecisionFigures, rollbackFigures, routingFigures } from "./metrics";
import type { TeamMetricsRaw } from "./store/metrics-store-port";

const raw = (over: Partial<TeamMetricsRaw> = {}): TeamMetricsRaw => ({
  tokensIn: 10,
  tokensOut: 20,
  gatesByKind: { soft: 2 },
  autoApprovals: 1,
  humanApprovals: 3,
  gateOutcomes: {} as TeamMetricsRaw["gateOutcomes"],
  humanLatenciesMs: [100, 200, 300, 400],
  deadLettersOpen: 1,
  deadLettersCreated: 2,
  dlqCount: 1,
  dlqRecent: [{ event_id: "e1", type: "task.failed", attempts: 3, received_at: 0 }],
  decisions: { decisions: 8, escalations: 2, unknownClass: 1, missingMetadata: 4 },
  sessions: [],
  ceiling: "enforce",
  rollbacks: [],
  learningAborted: 0,
  ...over,
});

describe("metrics figures", () => {
  it("gates: every kind present (zero when unseen), soft and hard counts from it, latency percentiles", () => {
    const f = gateAndDecisionFigures(raw());
    expect(f.gates_by_kind).toEqual({ auto: 0, soft: 2, hard: 0, deny: 0 });
    expect([f.policy_soft_gate_count, f.policy_hard_gate_count]).toEqual([2, 0]);
    expect(f.human_approval_latency_ms).toEqual({ p50: 200, p95: 400, samples: 4 });
    expect(f.dlq_recent[0]?.received_at).toBe("1970-01-01T00:00:00.000Z");
    expect([f.escalation_rate, f.unknown_failure_class_ratio, f.missing_metadata_count]).toEqual([0.25, 0.125, 4]);
  });

  it("rates are rounded to 4 places and 0 without decisions", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), (decisions, escalations) => {
        const counts = {
          decisions,
          escalations: Math.min(escalations, decisions),
          unknownClass: 0,
          missingMetadata: 0,
        };
        const rate = gateAndDecisionFigures(raw({ decisions: counts })).escalation_rate ?? Number.NaN;
        expect(Math.round(rate * 10_000)).toBeCloseTo(rate * 10_000, 6);
        // within half a unit of the 4th place: a rate exactly on a half (1/32 = 0.03125) rounds away by 0.00005
        const exact = decisions === 0 ? 0 : counts.escalations / decisions;
        expect(Math.abs(rate - exact)).toBeLessThanOrEqual(0.00005 + 1e-12);
      }),
    );
  });

  it("routing: the ops-warden counts under their response names, ratios rounded", () => {
    const f = routingFigures({
      sessions: 6,
      repeats: 5,
      served: 3,
      llm_calls_avoided_count: 1,
      routing_repeat_accuracy: 2 / 3,
      stale_serves: 1,
      cross_runtime_repeats: 0,
      cross_runtime_continuity: null,
    });
    expect(f).toEqual({
      llm_calls_avoided_count: 1,
      routing_repeat_accuracy: 0.6667,
      cross_runtime_continuity: null,
      stale_serves: 1,
      routing_sessions: 6,
      routing_repeats: 5,
      routes_served: 3,
      cross_runtime_repeats: 0,
    });
  });

  it("rollbacks: each with its trigger's fields, null where the audit metadata lacks one", () => {
    const f = rollbackFigures({
      ceiling: "observe",
      rollbacks: [{ at: 0, metadata: { trigger_id: "t1", metric: "escalation_rate", value: 0.5, from: "enforce" } }],
    });
    expect(f).toEqual({
      mode_ceiling: "observe",
      rollback_count: 1,
      rollback_events: [
        {
          at: "1970-01-01T00:00:00.000Z",
          trigger_id: "t1",
          metric: "escalation_rate",
          value: 0.5,
          threshold: null,
          from: "enforce",
          to: null,
        },
      ],
    });
  });
});
