// The retry taxonomy and its combination with MemRL and the run's snapshot (pure).
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../policy/default-profile";
import { compileProfile } from "../policy/evaluator";
import { DEFAULT_COMPILED } from "../policy/team-policy-cache";
import { buildSnapshot, emptySnapshot } from "./snapshot";
import { nextAfterFailure, taxonomyPlan } from "./taxonomy";

const snap = emptySnapshot(0);
const off = { compiled: DEFAULT_COMPILED, ceiling: "enforce" as const };
const plan = (failure_class: string | null, attempt: number, snapshot = snap, single_attempt = false) =>
  taxonomyPlan({ failure_class, attempt, single_attempt }, snapshot).step;

describe("taxonomyPlan", () => {
  it.each([
    ["rate_limit", [1000, 4000, 10000]],
    ["transient", [1000, 4000, 10000]],
    ["timeout", [1000, 4000]],
    ["tool_error", [1000, 4000]],
  ])("retries %s with back-offs %j, then dead-letters", (cls, delays) => {
    for (const [i, ms] of delays.entries()) expect(plan(cls, i + 1)).toEqual({ next: "retry", retry_after_ms: ms });
    expect(plan(cls, delays.length + 1)).toEqual({ next: "dead_letter", reason_code: `retries_exhausted:${cls}` });
  });

  it("gates schema_invalid once, then dead-letters", () => {
    expect(plan("schema_invalid", 1)).toEqual({ next: "gate", policy_key: "schema_invalid" });
    expect(plan("schema_invalid", 2)).toEqual({ next: "dead_letter", reason_code: "retries_exhausted:schema_invalid" });
  });

  it("never retries wrong_value, replans capability_missing, retries a budget breach once", () => {
    expect(plan("wrong_value", 1)).toEqual({ next: "dead_letter", reason_code: "wrong_value" });
    expect(plan("capability_missing", 1)).toEqual({ next: "replan" });
    expect(plan("budget_exceeded", 1)).toEqual({ next: "retry", retry_after_ms: 0 });
    expect(plan("budget_exceeded", 2).next).toBe("dead_letter");
  });

  it("fails closed on a missing or unknown class", () => {
    expect(plan(null, 1)).toEqual({ next: "dead_letter", reason_code: "missing_failure_class" });
    expect(plan("gremlins", 1)).toEqual({ next: "dead_letter", reason_code: "unknown_failure_class" });
  });

  it("applies the snapshot's backoff_multiplier and max_attempts_override", () => {
    const s = buildSnapshot(
      [
        { failureClass: "rate_limit", backoffMultiplier: 1.5, maxAttemptsOverride: 2 },
        { failureClass: "wrong_value", backoffMultiplier: 2, maxAttemptsOverride: 5 },
      ],
      0,
    );
    expect(plan("rate_limit", 1, s)).toEqual({ next: "retry", retry_after_ms: 1500 });
    expect(plan("rate_limit", 2, s).next).toBe("dead_letter");
    // an override never turns a no-retry class into a retry
    expect(plan("wrong_value", 1, s).next).toBe("dead_letter");
  });

  it("gives a reissued dead letter one attempt", () => {
    expect(plan("rate_limit", 1, snap, true)).toEqual({
      next: "dead_letter",
      reason_code: "reissue_failed:rate_limit",
    });
  });
});

describe("nextAfterFailure", () => {
  it("follows the taxonomy in off mode (the default profile) and logs the MemRL decision", () => {
    const r = nextAfterFailure({ failure_class: "rate_limit", attempt: 1, single_attempt: false }, snap, off);
    expect(r.step).toEqual({ next: "retry", retry_after_ms: 1000 });
    expect(r.decision).toMatchObject({
      memrl_mode: "off",
      failure_class: "phase_stall",
      attempt_bucket: "initial",
      selected_action: "retry",
      max_attempts: 4,
    });
  });

  it("lets an enforce-mode escalation turn a retry into a dead letter, never the reverse", () => {
    const enforce = compileProfile({ ...DEFAULT_PROFILE, default_mode: "enforce" }, 7);
    const ctx = { compiled: enforce, ceiling: "enforce" as const };
    // capability_missing maps to crank_blocked, which enforce escalates: the taxonomy's replan stays
    expect(
      nextAfterFailure({ failure_class: "capability_missing", attempt: 1, single_attempt: false }, snap, ctx).step,
    ).toEqual({ next: "replan" });
    // the default profile only escalates at final/overflow, where the taxonomy has already stopped retrying
    expect(
      nextAfterFailure({ failure_class: "rate_limit", attempt: 3, single_attempt: false }, snap, ctx).step,
    ).toEqual({ next: "retry", retry_after_ms: 10000 });
    const overridden = buildSnapshot([{ failureClass: "rate_limit", backoffMultiplier: 1, maxAttemptsOverride: 3 }], 0);
    const final = nextAfterFailure({ failure_class: "rate_limit", attempt: 3, single_attempt: false }, overridden, ctx);
    expect(final.step.next).toBe("dead_letter");
    expect(final.decision).toMatchObject({ attempt_bucket: "final", selected_action: "escalate", max_attempts: 3 });
    const escalate = compileProfile(
      {
        ...DEFAULT_PROFILE,
        default_mode: "enforce",
        rules: DEFAULT_PROFILE.rules.map((r) =>
          r.rule_id === "enforce.phase_timeout.initial" ? { ...r, action: "escalate" as const } : r,
        ),
      },
      8,
    );
    const t = nextAfterFailure({ failure_class: "timeout", attempt: 1, single_attempt: false }, snap, {
      compiled: escalate,
      ceiling: "enforce",
    });
    expect(t.step).toEqual({ next: "dead_letter", reason_code: "escalated:enforce.phase_timeout.initial" });
    // the team's ceiling caps the mode: observe keeps the taxonomy's action
    const capped = nextAfterFailure({ failure_class: "timeout", attempt: 1, single_attempt: false }, snap, {
      compiled: escalate,
      ceiling: "observe",
    });
    expect(capped.step.next).toBe("retry");
  });
});

describe("buildSnapshot", () => {
  it("sorts classes, keeps in-bound values and resets out-of-bound ones with DTL-STRAT-001", () => {
    const s = buildSnapshot(
      [
        { failureClass: "timeout", backoffMultiplier: 0.01, maxAttemptsOverride: 2 },
        { failureClass: "a_class", backoffMultiplier: 2, maxAttemptsOverride: 99 },
      ],
      5,
    );
    expect(Object.keys(s.retry_adjustments)).toEqual(["a_class", "timeout"]);
    expect(s.retry_adjustments).toEqual({
      a_class: { backoff_multiplier: 2, max_attempts_override: null },
      timeout: { backoff_multiplier: 1, max_attempts_override: 2 },
    });
    expect(s.warnings.every((w) => w.startsWith("DTL-STRAT-001"))).toBe(true);
    expect(s.warnings).toHaveLength(2);
  });
});
