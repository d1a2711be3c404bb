// The pure promotion checks: acknowledgements per changed class, parity in off mode, the MemRL conformance cases.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ATTEMPT_BUCKETS,
  FAILURE_CLASSES,
  MEMRL_MODES,
  type MemrlPolicyProfile,
  type PolicyRule,
} from "../../../contracts/memrl-policy";
import example from "../../../contracts/memrl-policy.profile.example.json";
import { DEFAULT_PROFILE } from "./default-profile";
import { compileProfile, decide } from "./evaluator";
import { ACK_THRESHOLD, acksRequired, CONFORMANCE_CASES, conformanceCheck, parityCheck } from "./promotion-checks";
import { replayDecisions } from "./replay";
import type { LoggedDecision } from "./store/policy-store-port";

const enforce: MemrlPolicyProfile = { ...DEFAULT_PROFILE, default_mode: "enforce" };

const logged = (i: number, inputs: Record<string, unknown>, over: Partial<LoggedDecision> = {}): LoggedDecision => ({
  decision_id: `dec_${i}`,
  team_id: "t",
  run_id: null,
  task_id: null,
  inputs,
  inputs_digest: `d${i}`,
  profile_version: 0,
  requested_mode: "observe",
  effective_mode: "observe",
  ceiling: "enforce",
  failure_class: typeof inputs.failure_class === "string" ? inputs.failure_class : null,
  attempt_bucket: "middle",
  rule_id: `observe.${String(inputs.failure_class)}.middle`,
  raw_action: "retry",
  selected_action: "retry",
  created_at: i,
  ...over,
});

const arbRule = fc.record({
  rule_id: fc.stringMatching(/^[a-z]{1,6}$/),
  memrl_mode: fc.constantFrom(...MEMRL_MODES),
  failure_class: fc.constantFrom("*", ...FAILURE_CLASSES),
  attempt_bucket: fc.constantFrom("*", ...ATTEMPT_BUCKETS),
  action: fc.constantFrom("retry" as const, "escalate" as const),
  priority: fc.integer({ min: 0, max: 3 }),
}) as fc.Arbitrary<PolicyRule>;
const arbRules = fc.uniqueArray(arbRule, { minLength: 1, maxLength: 30, selector: (r) => r.rule_id });
const arbLogged = fc.array(
  fc.record({
    failure_class: fc.oneof(fc.constantFrom(...FAILURE_CLASSES), fc.string({ maxLength: 8 })),
    attempt: fc.integer({ min: 0, max: 6 }),
    max_attempts: fc.integer({ min: 0, max: 5 }),
    memrl_mode: fc.constantFrom(...MEMRL_MODES),
    legacy_action: fc.option(fc.constantFrom("retry", "escalate"), { nil: undefined }),
  }),
  { maxLength: 40 },
);

describe("acksRequired", () => {
  it("names the classes whose changed decisions exceed the threshold, and only those", () => {
    const byClass = [
      { failure_class: "vibe_fail", decisions: 40, changes: ACK_THRESHOLD + 1 },
      { failure_class: "phase_stall", decisions: 40, changes: ACK_THRESHOLD },
      { failure_class: "crank_blocked", decisions: 9, changes: 9 },
    ];
    expect(acksRequired(byClass)).toEqual(["crank_blocked", "vibe_fail"]);
    expect(acksRequired(byClass, 100)).toEqual([]);
  });

  it("counts replay changes per failure class, unknown strings and missing classes apart", () => {
    const stricter = {
      ...enforce,
      rules: enforce.rules.map((r) =>
        r.rule_id === "enforce.vibe_fail.middle" ? { ...r, action: "escalate" as const } : r,
      ),
    };
    const base = { memrl_mode: "enforce", attempt: 2, max_attempts: 3 };
    const rows = [
      ...Array.from({ length: 7 }, (_, i) =>
        logged(i, { ...base, failure_class: "vibe_fail" }, { rule_id: "enforce.vibe_fail.middle", ceiling: "enforce" }),
      ),
      logged(
        7,
        { ...base, failure_class: "flaky" },
        { rule_id: "default.unknown_failure_class", raw_action: "escalate", selected_action: "escalate" },
      ),
      logged(
        8,
        { memrl_mode: "enforce", attempt: 1 },
        { rule_id: "default.missing_metadata", raw_action: "escalate", selected_action: "escalate" },
      ),
    ];
    const report = replayDecisions(stricter, rows);
    expect(report.by_class).toEqual([
      { failure_class: "missing", decisions: 1, changes: 0 },
      { failure_class: "unknown", decisions: 1, changes: 0 },
      { failure_class: "vibe_fail", decisions: 7, changes: 7 },
    ]);
    expect(acksRequired(report.by_class)).toEqual(["vibe_fail"]);
  });

  it("property: more changes never need fewer acknowledgements, and a class at or below the threshold never needs one", () => {
    const arbByClass = fc.uniqueArray(
      fc.record({ failure_class: fc.constantFrom(...FAILURE_CLASSES), decisions: fc.nat(50), changes: fc.nat(50) }),
      { selector: (c) => c.failure_class },
    );
    fc.assert(
      fc.property(arbByClass, fc.nat(20), (byClass, extra) => {
        const more = byClass.map((c) => ({ ...c, changes: c.changes + extra }));
        const acks = acksRequired(byClass);
        for (const a of acks) expect(acksRequired(more)).toContain(a);
        for (const c of byClass) expect(acks.includes(c.failure_class)).toBe(c.changes > ACK_THRESHOLD);
      }),
    );
  });
});

describe("parityCheck", () => {
  it("checks every logged decision that carried a legacy action and passes the real evaluator", () => {
    const rows = [
      logged(1, { memrl_mode: "enforce", failure_class: "crank_blocked", attempt: 1, legacy_action: "retry" }),
      logged(2, { memrl_mode: "observe", failure_class: "vibe_fail", attempt: 3, legacy_action: "escalate" }),
      logged(3, { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 1 }),
    ];
    expect(parityCheck(compileProfile(enforce, -1), rows)).toEqual({ checked: 2, failures: [] });
  });

  it("lists each decision where off did not select the legacy action", () => {
    const rows = [
      logged(1, { failure_class: "crank_blocked", attempt: 1, legacy_action: "retry" }),
      logged(2, { failure_class: "vibe_fail", attempt: 1, legacy_action: "retry" }),
    ];
    // an evaluator that ignores legacy_action in off: what parity is there to catch
    const broken: typeof decide = (c, input, ctx) => {
      const d = decide(c, { ...input, memrl_mode: "enforce" }, { ...ctx, ceiling: "enforce" });
      return { ...d, selected_action: d.action };
    };
    const report = parityCheck(compileProfile(enforce, -1), rows, broken);
    expect(report.checked).toBe(2);
    expect(report.failures).toEqual([
      {
        decision_id: "dec_1",
        legacy_action: "retry",
        selected_action: "escalate",
        rule_id: "enforce.crank_blocked.initial",
      },
    ]);
  });

  it("property: any schema-valid profile keeps parity on any logged decisions", () => {
    fc.assert(
      fc.property(arbRules, arbLogged, fc.constantFrom(...MEMRL_MODES), (rules, inputs, ceiling) => {
        const profile: MemrlPolicyProfile = { ...DEFAULT_PROFILE, rules };
        const rows = inputs.map((x, i) => logged(i, x, { ceiling }));
        const report = parityCheck(compileProfile(profile, -1), rows);
        expect(report.failures).toEqual([]);
        expect(report.checked).toBe(inputs.filter((x) => x.legacy_action !== undefined).length);
      }),
    );
  });
});

describe("conformanceCheck", () => {
  it("passes the built-in default profile in every mode", () => {
    for (const default_mode of MEMRL_MODES) {
      const report = conformanceCheck(compileProfile({ ...DEFAULT_PROFILE, default_mode }, -1));
      expect(report).toEqual({ cases: CONFORMANCE_CASES.length, failures: [] });
    }
  });

  it("passes the seed's checked-in example profile promoted to enforce", () => {
    const promoted = { ...(example as MemrlPolicyProfile), default_mode: "enforce" as const };
    expect(conformanceCheck(compileProfile(promoted, -1)).failures).toEqual([]);
  });

  it.each([
    [
      { unknown_failure_class_action: "retry" },
      ["fail_closed.unknown_failure_class", "fail_closed.enforce_ignores_legacy"],
    ],
    [{ missing_metadata_action: "retry" }, ["fail_closed.missing_failure_class", "fail_closed.missing_attempt"]],
    [{ tie_break_rules: ["priority first", "specificity", "rule_id"] }, ["tie_break.declared_order"]],
  ] as const)("refuses a profile that breaks a fail-closed default or the declared order: %o", (change, ids) => {
    const report = conformanceCheck(compileProfile({ ...enforce, ...change } as MemrlPolicyProfile, -1));
    expect(report.failures.map((f) => f.id).sort()).toEqual([...ids].sort());
    for (const f of report.failures) expect(f.reason.length).toBeGreaterThan(0);
  });

  it("refuses a profile that retries past max_attempts in enforce, naming the class", () => {
    const retrying = {
      ...enforce,
      rules: enforce.rules.map((r) =>
        r.rule_id === "enforce.phase_stall.overflow" ? { ...r, action: "retry" as const } : r,
      ),
    };
    const report = conformanceCheck(compileProfile(retrying, -1));
    expect(report.failures).toEqual([
      expect.objectContaining({
        id: "bucket.overflow_escalates.phase_stall",
        reason: "action is retry, expected escalate",
      }),
    ]);
  });

  it("finds a tie resolved against the seed's order (an evaluator that prefers the larger rule_id)", () => {
    const tie: MemrlPolicyProfile = {
      ...enforce,
      rules: [
        ...enforce.rules.filter((r) => r.memrl_mode !== "enforce" || r.failure_class !== "vibe_fail"),
        {
          rule_id: "a.vibe",
          memrl_mode: "enforce",
          failure_class: "vibe_fail",
          attempt_bucket: "initial",
          action: "retry",
          priority: 5,
        },
        {
          rule_id: "b.vibe",
          memrl_mode: "enforce",
          failure_class: "vibe_fail",
          attempt_bucket: "initial",
          action: "escalate",
          priority: 5,
        },
      ],
    };
    const compiled = compileProfile(tie, -1);
    expect(conformanceCheck(compiled).failures).toEqual([]);
    const backwards: typeof decide = (c, input, ctx) => {
      const d = decide(c, input, ctx);
      return d.rule_id === "a.vibe" ? { ...d, rule_id: "b.vibe", action: "escalate" } : d;
    };
    const failures = conformanceCheck(compiled, CONFORMANCE_CASES, backwards).failures;
    expect(failures.map((f) => f.id)).toEqual(["tie_break.resolution"]);
    expect(failures[0]?.reason).toContain("vibe_fail/initial: b.vibe, expected a.vibe");
  });

  it("property: a profile fails a fail_closed case exactly when one of its default actions is retry", () => {
    fc.assert(
      fc.property(
        arbRules,
        fc.constantFrom("retry" as const, "escalate" as const),
        fc.constantFrom("retry" as const, "escalate" as const),
        (rules, unknown, missing) => {
          const profile: MemrlPolicyProfile = {
            ...DEFAULT_PROFILE,
            rules,
            unknown_failure_class_action: unknown,
            missing_metadata_action: missing,
          };
          const ids = conformanceCheck(compileProfile(profile, -1)).failures.map((f) => f.id);
          expect(ids.includes("fail_closed.unknown_failure_class")).toBe(unknown === "retry");
          expect(ids.includes("fail_closed.missing_attempt")).toBe(missing === "retry");
          // the evaluator and the reference tie-break agree on every profile
          expect(ids).not.toContain("tie_break.resolution");
          // bucket boundaries do not depend on the rules
          expect(ids.filter((id) => id.startsWith("bucket.attempt_"))).toEqual([]);
        },
      ),
    );
  });
});
