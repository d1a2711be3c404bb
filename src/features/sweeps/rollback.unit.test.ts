// Rollback matrix parsing and evaluation: windows, thresholds on both sides of > / >=, samples, target modes.
import { describe, expect, it } from "vitest";
import type { RollbackTrigger } from "../../../contracts/memrl-policy";
import { breaches, evaluateTrigger, metricValue, parseThreshold, parseWindow, targetMode } from "./rollback";

const trigger = (over: Partial<RollbackTrigger>): RollbackTrigger => ({
  trigger_id: "t1",
  metric: "escalation_rate",
  metric_source_command: "GET /v1/metrics",
  lookback_window: "24h",
  min_sample_size: 4,
  threshold: "escalation_rate > 0.5",
  operator_action: "set memrl_mode ceiling to observe",
  verification_command: "x",
  ...over,
});
const counts = (decisions: number, escalations = 0, unknownClass = 0, missingMetadata = 0) => ({
  decisions,
  escalations,
  unknownClass,
  missingMetadata,
});

describe("parseWindow", () => {
  it.each([
    ["24h", 86_400_000],
    ["48h", 172_800_000],
    ["7d", 604_800_000],
    ["90m", 5_400_000],
    [" 2w ", 1_209_600_000],
  ])("reads %s", (text, ms) => expect(parseWindow(text)).toBe(ms));

  it.each(["", "24", "h", "0h", "1.5h", "31d", "24 hours", "-1d"])("refuses %j", (text) =>
    expect(parseWindow(text)).toBeNull(),
  );
});

describe("parseThreshold and breaches", () => {
  it("reads the four comparisons", () => {
    expect(parseThreshold("escalation_rate > 0.35")).toEqual({ metric: "escalation_rate", op: ">", value: 0.35 });
    expect(parseThreshold("missing_metadata_count >= 1")).toEqual({
      metric: "missing_metadata_count",
      op: ">=",
      value: 1,
    });
    expect(parseThreshold("x<2")).toEqual({ metric: "x", op: "<", value: 2 });
    expect(parseThreshold("x <= -0.5")?.op).toBe("<=");
    expect(parseThreshold("x == 1")).toBeNull();
    expect(parseThreshold("x > high")).toBeNull();
  });

  it("compares on both sides of the boundary", () => {
    const at = (op: string) =>
      breaches(0.5, parseThreshold(`m ${op} 0.5`) as NonNullable<ReturnType<typeof parseThreshold>>);
    expect([at(">"), at(">="), at("<"), at("<=")]).toEqual([false, true, false, true]);
  });
});

describe("targetMode", () => {
  it("follows the operator action and never raises", () => {
    expect(targetMode("set memrl_mode ceiling to observe and rerun", "enforce")).toBe("observe");
    expect(targetMode("set memrl_mode ceiling to off and open an issue", "enforce")).toBe("off");
    expect(targetMode("observe first, then off", "enforce")).toBe("off");
    expect(targetMode("set ceiling to observe", "off")).toBe("off");
    expect(targetMode("page the on-call", "enforce")).toBe("observe");
    expect(targetMode("page the on-call", "observe")).toBe("off");
    expect(targetMode("turn it offline", "enforce")).toBe("observe");
  });
});

describe("evaluateTrigger", () => {
  it("fires at exactly the threshold for >= with exactly the minimum sample, and not one sample below", () => {
    const t = trigger({ threshold: "escalation_rate >= 0.5", min_sample_size: 4 });
    expect(evaluateTrigger(t, counts(4, 2)).status).toBe("breach");
    expect(evaluateTrigger(t, counts(3, 2))).toMatchObject({ status: "insufficient_sample", sample: 3 });
    expect(evaluateTrigger(t, counts(4, 1)).status).toBe("ok");
  });

  it("does not fire at exactly the threshold for >, only above it", () => {
    const t = trigger({ threshold: "escalation_rate > 0.5", min_sample_size: 4 });
    expect(evaluateTrigger(t, counts(4, 2))).toMatchObject({ status: "ok", value: 0.5 });
    expect(evaluateTrigger(t, counts(4, 3))).toMatchObject({ status: "breach", value: 0.75 });
  });

  it("computes each metric from the decision counts", () => {
    expect(metricValue("unknown_failure_class_ratio", counts(10, 0, 2))).toBe(0.2);
    expect(metricValue("missing_metadata_count", counts(10, 0, 0, 3))).toBe(3);
    expect(metricValue("escalation_rate", counts(0))).toBe(0);
    expect(metricValue("latency", counts(1))).toBeNull();
  });

  it("marks unreadable triggers invalid instead of guessing", () => {
    expect(evaluateTrigger(trigger({ threshold: "escalation_rate ~ 3" }), counts(9, 9)).status).toBe("invalid");
    expect(evaluateTrigger(trigger({ threshold: "other_rate > 0.1" }), counts(9, 9)).status).toBe("invalid");
    expect(evaluateTrigger(trigger({ metric: "p99", threshold: "p99 > 3" }), counts(9, 9)).status).toBe("invalid");
  });
});
