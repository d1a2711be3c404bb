// Tests of the MemRL evaluator (pure): attempt buckets, the built-in profile, failing closed, tie-breaks, modes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ATTEMPT_BUCKETS,
  FAILURE_CLASSES,
  MEMRL_MODES,
  type MemrlMode,
  type MemrlPolicyProfile,
  type PolicyRule,
} from "../../../contracts/memrl-policy";
import { DEFAULT_PROFILE } from "./default-profile";
import {
  attemptBucket,
  compileProfile,
  type DecisionInput,
  decide,
  decisionInput,
  UNKNOWN_CLASS_CACHE,
} from "./evaluator";

const compiledDefault = compileProfile(DEFAULT_PROFILE, 0);
const open = { ceiling: "enforce" as const };

const profileWith = (rules: PolicyRule[], extra: Partial<MemrlPolicyProfile> = {}): MemrlPolicyProfile => ({
  ...DEFAULT_PROFILE,
  rules,
  ...extra,
});
const rule = (rule_id: string, fields: Partial<PolicyRule> = {}): PolicyRule => ({
  rule_id,
  memrl_mode: "enforce",
  failure_class: "*",
  attempt_bucket: "*",
  action: "retry",
  priority: 0,
  ...fields,
});

/** The contract read literally: filter, sort by (specificity, priority, rule_id), take the first. */
function referenceDecide(profile: MemrlPolicyProfile, mode: MemrlMode, failureClass: string, bucket: string) {
  const matches = profile.rules
    .filter((r) => r.memrl_mode === mode)
    .filter((r) => r.failure_class === "*" || r.failure_class === failureClass)
    .filter((r) => r.attempt_bucket === "*" || r.attempt_bucket === bucket)
    .map((r) => ({ r, spec: (r.failure_class === "*" ? 0 : 1) + (r.attempt_bucket === "*" ? 0 : 1) }))
    .sort((a, b) => b.spec - a.spec || b.r.priority - a.r.priority || (a.r.rule_id < b.r.rule_id ? -1 : 1));
  return matches[0]?.r;
}

describe("attemptBucket", () => {
  it.each([
    [1, 3, "initial"],
    [0, 3, "initial"],
    [2, 3, "middle"],
    [3, 3, "final"],
    [4, 3, "overflow"],
    [1, 1, "initial"],
    [2, 1, "overflow"],
    [1, 0, "overflow"],
    [5, -2, "overflow"],
    [2, 2, "final"],
  ] as const)("attempt %i of max %i is %s", (attempt, max, bucket) => {
    expect(attemptBucket(attempt, max)).toBe(bucket);
  });
});

describe("decide with the built-in profile", () => {
  const expectedAction = (mode: string, failureClass: string, bucket: string) =>
    bucket === "final" || bucket === "overflow" || (mode === "enforce" && failureClass === "crank_blocked")
      ? "escalate"
      : "retry";

  const table = MEMRL_MODES.flatMap((mode) =>
    FAILURE_CLASSES.flatMap((failureClass) => ATTEMPT_BUCKETS.map((bucket) => [mode, failureClass, bucket] as const)),
  );

  it("covers 3 modes × 7 classes × 4 buckets", () => {
    expect(table).toHaveLength(84);
  });

  it.each(table)("%s × %s × %s matches the contract", (mode, failureClass, bucket) => {
    const d = decide(compiledDefault, { memrl_mode: mode, failure_class: failureClass, attempt_bucket: bucket }, open);
    expect(d.rule_id).toBe(`${mode}.${failureClass}.${bucket}`);
    expect(d.action).toBe(expectedAction(mode, failureClass, bucket));
    expect(d.memrl_mode).toBe(mode);
    expect(d.attempt_bucket).toBe(bucket);
    expect(d.selected_action).toBe(d.action);
  });

  it("derives the bucket from attempt and max_attempts", () => {
    const at = (attempt: number, max_attempts?: number) =>
      decide(compiledDefault, { memrl_mode: "enforce", failure_class: "vibe_fail", attempt, max_attempts }, open);
    expect(at(1, 3).rule_id).toBe("enforce.vibe_fail.initial");
    expect(at(2, 3).rule_id).toBe("enforce.vibe_fail.middle");
    expect(at(3, 3).action).toBe("escalate");
    expect(at(4, 3).attempt_bucket).toBe("overflow");
    expect(at(1, 0).attempt_bucket).toBe("overflow");
    // max_attempts missing → 3
    expect(at(3).attempt_bucket).toBe("final");
    expect(at(2).attempt_bucket).toBe("middle");
  });

  it("uses the policy-memory max_attempts_override when max_attempts is missing", () => {
    const d = decide(
      compiledDefault,
      { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 3 },
      { ceiling: "enforce", maxAttemptsOverrides: { vibe_fail: 5 } },
    );
    expect(d.attempt_bucket).toBe("middle");
    expect(d.action).toBe("retry");
    const explicit = decide(
      compiledDefault,
      { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 3, max_attempts: 3 },
      { ceiling: "enforce", maxAttemptsOverrides: { vibe_fail: 5 } },
    );
    expect(explicit.attempt_bucket).toBe("final");
  });

  it("reads only the overrides' own keys: a class named like an Object.prototype member gets the default max", () => {
    for (const failure_class of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const d = decide(
        compiledDefault,
        { memrl_mode: "enforce", failure_class, attempt: 2 },
        { ceiling: "enforce", maxAttemptsOverrides: { vibe_fail: 5 } },
      );
      expect(d.attempt_bucket, failure_class).toBe("middle");
      expect(d.rule_id).toBe("default.unknown_failure_class");
    }
  });

  it("falls back to the profile's default_mode when no mode is requested", () => {
    const d = decide(compiledDefault, { failure_class: "vibe_fail", attempt: 1 }, open);
    expect(d.requested_mode).toBe("off");
    expect(d.memrl_mode).toBe("off");
    expect(d.rule_id).toBe("off.vibe_fail.initial");
  });
});

describe("decide fails closed", () => {
  it("escalates with default.missing_metadata when failure_class is missing", () => {
    const d = decide(compiledDefault, { memrl_mode: "enforce", attempt: 1 }, open);
    expect(d).toMatchObject({ action: "escalate", rule_id: "default.missing_metadata", failure_class: null });
  });

  it("escalates with default.missing_metadata when there is no attempt information", () => {
    const d = decide(compiledDefault, { memrl_mode: "enforce", failure_class: "vibe_fail", max_attempts: 3 }, open);
    expect(d).toMatchObject({ action: "escalate", rule_id: "default.missing_metadata", attempt_bucket: null });
  });

  it("escalates with default.unknown_failure_class for a class outside the seven", () => {
    const d = decide(compiledDefault, { memrl_mode: "enforce", failure_class: "disk_full", attempt: 1 }, open);
    expect(d).toMatchObject({
      action: "escalate",
      rule_id: "default.unknown_failure_class",
      failure_class: "disk_full",
    });
  });

  it("uses default.no_matching_rule when no rule of the effective mode matches", () => {
    const compiled = compileProfile(profileWith([rule("enforce.only", { failure_class: "vibe_fail" })]), 1);
    const d = decide(compiled, { memrl_mode: "observe", failure_class: "vibe_fail", attempt: 1 }, open);
    expect(d).toMatchObject({ action: "escalate", rule_id: "default.no_matching_rule" });
    const other = decide(compiled, { memrl_mode: "enforce", failure_class: "phase_stall", attempt: 1 }, open);
    expect(other.rule_id).toBe("default.no_matching_rule");
  });

  it("takes the default actions from the profile", () => {
    const compiled = compileProfile(
      profileWith([rule("r")], { missing_metadata_action: "retry", unknown_failure_class_action: "retry" }),
      1,
    );
    expect(decide(compiled, { memrl_mode: "enforce" }, open).action).toBe("retry");
    expect(decide(compiled, { memrl_mode: "enforce", failure_class: "x", attempt: 1 }, open).action).toBe("retry");
  });
});

describe("decide tie-breaks", () => {
  it("prefers exact class and exact bucket over wildcards, whatever the priority", () => {
    const compiled = compileProfile(
      profileWith([
        rule("a.wild", { priority: 1000, action: "escalate" }),
        rule("z.exact", { failure_class: "vibe_fail", attempt_bucket: "initial", priority: 1 }),
        rule("m.class", { failure_class: "vibe_fail", priority: 500, action: "escalate" }),
      ]),
      1,
    );
    const d = decide(compiled, { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 1 }, open);
    expect(d.rule_id).toBe("z.exact");
    expect(decide(compiled, { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2 }, open).rule_id).toBe(
      "m.class",
    );
    expect(decide(compiled, { memrl_mode: "enforce", failure_class: "phase_stall", attempt: 2 }, open).rule_id).toBe(
      "a.wild",
    );
  });

  it("breaks equal specificity by higher priority", () => {
    const compiled = compileProfile(
      profileWith([
        rule("a.class-only", { failure_class: "vibe_fail", priority: 10, action: "escalate" }),
        rule("b.bucket-only", { attempt_bucket: "initial", priority: 20 }),
      ]),
      1,
    );
    const d = decide(compiled, { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 1 }, open);
    expect(d.rule_id).toBe("b.bucket-only");
  });

  it("breaks equal specificity and priority by the lexically smallest rule_id", () => {
    const compiled = compileProfile(
      profileWith([
        rule("rule-b", { failure_class: "vibe_fail", priority: 5 }),
        rule("rule-a", { attempt_bucket: "initial", priority: 5, action: "escalate" }),
        rule("rule-c", { failure_class: "vibe_fail", priority: 5 }),
      ]),
      1,
    );
    const d = decide(compiled, { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 1 }, open);
    expect(d.rule_id).toBe("rule-a");
    expect(d.action).toBe("escalate");
  });

  it("matches the literal reading of the contract on random profiles", () => {
    const arbRule = fc.record({
      rule_id: fc.string({ minLength: 1, maxLength: 6 }),
      memrl_mode: fc.constantFrom(...MEMRL_MODES),
      failure_class: fc.constantFrom("*", ...FAILURE_CLASSES),
      attempt_bucket: fc.constantFrom("*", ...ATTEMPT_BUCKETS),
      action: fc.constantFrom("retry", "escalate"),
      priority: fc.integer({ min: 0, max: 3 }),
    }) as fc.Arbitrary<PolicyRule>;
    fc.assert(
      fc.property(
        fc.uniqueArray(arbRule, { minLength: 1, maxLength: 25, selector: (r) => r.rule_id }),
        fc.constantFrom(...MEMRL_MODES),
        fc.constantFrom(...FAILURE_CLASSES),
        fc.constantFrom(...ATTEMPT_BUCKETS),
        (rules, mode, failureClass, bucket) => {
          const profile = profileWith(rules);
          const expected = referenceDecide(profile, mode, failureClass, bucket);
          const d = decide(
            compileProfile(profile, 1),
            { memrl_mode: mode, failure_class: failureClass, attempt_bucket: bucket },
            open,
          );
          expect(d.rule_id).toBe(expected?.rule_id ?? "default.no_matching_rule");
          expect(d.action).toBe(expected?.action ?? profile.unknown_failure_class_action);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("decide modes", () => {
  it("lowers the requested mode to the team's ceiling", () => {
    const d = decide(
      compiledDefault,
      { memrl_mode: "enforce", failure_class: "crank_blocked", attempt: 1 },
      { ceiling: "observe" },
    );
    expect(d.requested_mode).toBe("enforce");
    expect(d.memrl_mode).toBe("observe");
    expect(d.rule_id).toBe("observe.crank_blocked.initial");
    expect(d.action).toBe("retry");
  });

  it("never raises the requested mode above what was asked", () => {
    const d = decide(
      compiledDefault,
      { memrl_mode: "off", failure_class: "vibe_fail", attempt: 1 },
      { ceiling: "enforce" },
    );
    expect(d.memrl_mode).toBe("off");
  });

  it("selects the legacy action in off and observe, the policy's action in enforce", () => {
    const base: DecisionInput = { failure_class: "vibe_fail", attempt: 3, max_attempts: 3, legacy_action: "retry" };
    for (const mode of ["off", "observe"] as const) {
      const d = decide(compiledDefault, { ...base, memrl_mode: mode }, open);
      expect(d.action).toBe("escalate");
      expect(d.selected_action).toBe("retry");
    }
    const enforced = decide(compiledDefault, { ...base, memrl_mode: "enforce" }, open);
    expect(enforced.selected_action).toBe("escalate");
    const lowered = decide(compiledDefault, { ...base, memrl_mode: "enforce" }, { ceiling: "off" });
    expect(lowered.selected_action).toBe("retry");
  });

  it("selects the policy's action when no legacy action is given, in every mode", () => {
    for (const mode of MEMRL_MODES) {
      const d = decide(compiledDefault, { memrl_mode: mode, failure_class: "vibe_fail", attempt: 3 }, open);
      expect(d.selected_action).toBe(d.action);
    }
  });
});

describe("decide properties", () => {
  const arbInput: fc.Arbitrary<DecisionInput> = fc.record(
    {
      memrl_mode: fc.constantFrom(...MEMRL_MODES),
      failure_class: fc.oneof(fc.constantFrom(...FAILURE_CLASSES), fc.string({ maxLength: 12 })),
      attempt: fc.integer({ min: 0, max: 10 }),
      max_attempts: fc.integer({ min: -2, max: 10 }),
      attempt_bucket: fc.constantFrom(...ATTEMPT_BUCKETS),
      legacy_action: fc.constantFrom("retry" as const, "escalate" as const),
    },
    { requiredKeys: [] },
  );

  it("gives the same output for the same input, profile version and context", () => {
    fc.assert(
      fc.property(arbInput, fc.constantFrom(...MEMRL_MODES), (input, ceiling) => {
        const again = compileProfile(DEFAULT_PROFILE, 0);
        expect(decide(again, { ...input }, { ceiling })).toEqual(decide(compiledDefault, input, { ceiling }));
      }),
      { numRuns: 1000 },
    );
  });

  it("never retries an unknown failure class under the default profile", () => {
    const unknown = fc.string({ maxLength: 20 }).filter((s) => !(FAILURE_CLASSES as readonly string[]).includes(s));
    fc.assert(
      fc.property(arbInput, unknown, fc.constantFrom(...MEMRL_MODES), (input, failure_class, ceiling) => {
        const d = decide(compiledDefault, { ...input, failure_class, legacy_action: undefined }, { ceiling });
        expect(d.action).toBe("escalate");
        expect(d.selected_action).toBe("escalate");
      }),
      { numRuns: 1000 },
    );
  });

  it("never lets the effective mode exceed the ceiling", () => {
    const rank = { off: 0, observe: 1, enforce: 2 };
    fc.assert(
      fc.property(arbInput, fc.constantFrom(...MEMRL_MODES), (input, ceiling) => {
        expect(rank[decide(compiledDefault, input, { ceiling }).memrl_mode]).toBeLessThanOrEqual(rank[ceiling]);
      }),
    );
  });
});

/** decide() written out plainly: no tables, no caches; every field of the decision from the contract. */
function referenceFull(
  profile: MemrlPolicyProfile,
  input: DecisionInput,
  ceiling: MemrlMode,
  overrides: Partial<Record<string, number>> | undefined,
) {
  const rank = { off: 0, observe: 1, enforce: 2 };
  const requested = input.memrl_mode ?? profile.default_mode;
  const mode = rank[requested] <= rank[ceiling] ? requested : ceiling;
  const failureClass = input.failure_class ?? null;
  let bucket: string | null = input.attempt_bucket ?? null;
  if (bucket === null && input.attempt !== undefined) {
    const fromOverride =
      input.failure_class !== undefined && overrides !== undefined && Object.hasOwn(overrides, input.failure_class)
        ? overrides[input.failure_class]
        : undefined;
    bucket = attemptBucket(input.attempt, input.max_attempts ?? fromOverride ?? 3);
  }
  const out = (action: "retry" | "escalate", rule_id: string, reason: string) => ({
    requested_mode: requested,
    memrl_mode: mode,
    failure_class: failureClass,
    attempt_bucket: bucket,
    action,
    rule_id,
    reason,
    selected_action: mode !== "enforce" && input.legacy_action !== undefined ? input.legacy_action : action,
  });
  if (failureClass === null || bucket === null) {
    const what = failureClass === null ? "failure_class" : "attempt information";
    return out(profile.missing_metadata_action, "default.missing_metadata", `missing ${what}: fail closed`);
  }
  if (!(FAILURE_CLASSES as readonly string[]).includes(failureClass)) {
    return out(
      profile.unknown_failure_class_action,
      "default.unknown_failure_class",
      `unknown failure_class "${failureClass}": fail closed`,
    );
  }
  const r = referenceDecide(profile, mode, failureClass, bucket);
  if (r === undefined) {
    return out(
      profile.unknown_failure_class_action,
      "default.no_matching_rule",
      `no ${mode} rule matches ${failureClass}/${bucket}: fail closed`,
    );
  }
  return out(
    r.action,
    r.rule_id,
    `${mode} rule ${r.rule_id} (class ${r.failure_class}, bucket ${r.attempt_bucket}, priority ${r.priority})`,
  );
}

describe("decide against a straightforward reference over the whole input space", () => {
  const arbRule = fc.record({
    rule_id: fc.string({ minLength: 1, maxLength: 6 }),
    memrl_mode: fc.constantFrom(...MEMRL_MODES),
    failure_class: fc.constantFrom("*", ...FAILURE_CLASSES),
    attempt_bucket: fc.constantFrom("*", ...ATTEMPT_BUCKETS),
    action: fc.constantFrom("retry", "escalate"),
    priority: fc.integer({ min: 0, max: 3 }),
  }) as fc.Arbitrary<PolicyRule>;
  const arbClass = fc.oneof(
    fc.constantFrom(...FAILURE_CLASSES),
    fc.constantFrom("constructor", "__proto__", "toString", "", "VIBE_FAIL"),
    fc.string({ maxLength: 12 }),
  );
  const arbInput: fc.Arbitrary<DecisionInput> = fc.record(
    {
      memrl_mode: fc.constantFrom(...MEMRL_MODES),
      failure_class: arbClass,
      attempt: fc.integer({ min: -2, max: 12 }),
      max_attempts: fc.integer({ min: -2, max: 10 }),
      attempt_bucket: fc.constantFrom(...ATTEMPT_BUCKETS),
      legacy_action: fc.constantFrom("retry" as const, "escalate" as const),
    },
    { requiredKeys: [] },
  );
  const arbOverrides = fc.option(
    fc.dictionary(fc.constantFrom(...FAILURE_CLASSES), fc.integer({ min: 0, max: 6 }), { maxKeys: 3 }),
    { nil: undefined },
  );

  it("equals the reference on random profiles, inputs, ceilings and overrides, repeated calls included", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(arbRule, { minLength: 1, maxLength: 20, selector: (r) => r.rule_id }),
        fc.constantFrom(...MEMRL_MODES),
        fc.constantFrom("retry" as const, "escalate" as const),
        fc.constantFrom("retry" as const, "escalate" as const),
        fc.array(fc.tuple(arbInput, fc.constantFrom(...MEMRL_MODES), arbOverrides), { minLength: 1, maxLength: 20 }),
        (rules, default_mode, unknownAction, missingAction, calls) => {
          const profile = profileWith(rules, {
            default_mode,
            unknown_failure_class_action: unknownAction,
            missing_metadata_action: missingAction,
          });
          const compiled = compileProfile(profile, 1);
          // Twice over: the second pass reads what the first one cached.
          for (const _ of [1, 2])
            for (const [input, ceiling, overrides] of calls) {
              const got = decide(compiled, input, { ceiling, maxAttemptsOverrides: overrides });
              expect({ ...got }).toEqual(referenceFull(profile, input, ceiling, overrides));
              expect(Object.isFrozen(got)).toBe(true);
            }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads the input the same whatever its key order, extra request fields or explicitly undefined fields", () => {
    // decide() walks the input's own keys: order, unrelated keys (the route's run_id/task_id) and `undefined`
    // values must not change the decision
    fc.assert(
      fc.property(
        arbInput,
        fc.constantFrom(...MEMRL_MODES),
        arbOverrides,
        fc.boolean(),
        fc.constantFrom("run_id", "task_id", "note"),
        (input, ceiling, overrides, withUndefined, extraKey) => {
          const context = { ceiling, maxAttemptsOverrides: overrides };
          const expected = referenceFull(DEFAULT_PROFILE, input, ceiling, overrides);
          const reversed = Object.fromEntries(Object.entries(input).reverse()) as DecisionInput;
          const padded = { [extraKey]: "x", ...input } as DecisionInput;
          if (withUndefined)
            for (const k of ["memrl_mode", "failure_class", "attempt", "max_attempts", "attempt_bucket"] as const)
              if (!(k in padded)) padded[k] = undefined;
          for (const variant of [input, reversed, padded])
            expect({ ...decide(compiledDefault, variant, context) }).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps at most UNKNOWN_CLASS_CACHE unknown classes and still answers right past it", () => {
    const compiled = compileProfile(DEFAULT_PROFILE, 0);
    for (let i = 0; i < UNKNOWN_CLASS_CACHE + 50; i++) {
      const d = decide(compiled, { memrl_mode: "enforce", failure_class: `gremlin_${i}`, attempt: 1 }, open);
      expect(d.failure_class).toBe(`gremlin_${i}`);
      expect(d.rule_id).toBe("default.unknown_failure_class");
    }
    expect(compiled.byClass.size).toBe(FAILURE_CLASSES.length + UNKNOWN_CLASS_CACHE);
  });
});

describe("decisionInput and decide's fast paths against the reference", () => {
  const FIELDS = ["memrl_mode", "failure_class", "attempt", "max_attempts", "attempt_bucket", "legacy_action"];
  const modes = [...MEMRL_MODES, undefined];
  const classes = [...FAILURE_CLASSES, "gremlin", "VIBE_FAIL", "constructor", "__proto__", undefined];
  // around the edges of the small-integer bucket table (0..7); the property test below covers any number
  const attempts = [undefined, -1, 0, 1, 3, 4, 7, 8, 2.5];
  const maxes = [undefined, 0, 1, 3, 7, 8];
  const buckets = [undefined, ...ATTEMPT_BUCKETS];
  const legacies = [undefined, "retry", "escalate"] as const;

  /** As JSON.parse would leave it: only the present fields, as own keys. */
  const asParsed = (fields: Record<string, unknown>): DecisionInput =>
    Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as DecisionInput;

  it("builds one shape: all six fields, in one order, undefined when absent, the rest dropped", () => {
    const built = decisionInput({ legacy_action: "retry", attempt: 2, run_id: "r" } as DecisionInput);
    expect(Object.keys(built)).toEqual(FIELDS);
    expect(built).toEqual({
      memrl_mode: undefined,
      failure_class: undefined,
      attempt: 2,
      max_attempts: undefined,
      attempt_bucket: undefined,
      legacy_action: "retry",
    });
    expect(Object.keys(decisionInput({}))).toEqual(FIELDS);
  });

  it("decides every combination × ceiling × overrides like the reference, from decisionInput() and as parsed", () => {
    let checked = 0;
    for (const overrides of [undefined, { vibe_fail: 1, crank_partial: 6, gremlin: 2 }]) {
      const compiled = compileProfile(DEFAULT_PROFILE, 0);
      for (const ceiling of MEMRL_MODES)
        for (const memrl_mode of modes)
          for (const failure_class of classes)
            for (const attempt of attempts)
              for (const max_attempts of maxes)
                for (const attempt_bucket of buckets)
                  for (const legacy_action of legacies) {
                    const fields = { memrl_mode, failure_class, attempt, max_attempts, attempt_bucket, legacy_action };
                    const context = { ceiling, maxAttemptsOverrides: overrides };
                    const expected = referenceFull(DEFAULT_PROFILE, asParsed(fields), ceiling, overrides);
                    const fast = decide(compiled, decisionInput(fields as DecisionInput), context);
                    const parsed = decide(compiled, asParsed(fields), context);
                    // toEqual only on a difference: 155k deep comparisons would dominate the test's time
                    if (JSON.stringify(fast) !== JSON.stringify(expected))
                      expect({ fields, fast }).toEqual({ fields, fast: expected });
                    if (parsed !== fast) expect({ fields, parsed }).toEqual({ fields, parsed: fast });
                    checked++;
                  }
    }
    expect(checked).toBe(2 * 3 * modes.length * classes.length * attempts.length * maxes.length * 5 * 3);
  });

  it("buckets any attempt × max_attempts like attemptBucket, the small-integer table included", () => {
    const anyNumber = fc.oneof(
      fc.integer({ min: -3, max: 20 }),
      fc.double({ noNaN: false }),
      fc.constantFrom(-0, 7, 8, 2 ** 31, 2 ** 32 + 1, -(2 ** 31), Number.POSITIVE_INFINITY),
    );
    fc.assert(
      fc.property(fc.constantFrom(...FAILURE_CLASSES), anyNumber, anyNumber, (failure_class, attempt, max_attempts) => {
        const d = decide(compiledDefault, decisionInput({ failure_class, attempt, max_attempts }), open);
        expect(d.attempt_bucket).toBe(attemptBucket(attempt, max_attempts));
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps the class tables and the unknown-class order in step, so a dropped class is rebuilt right", () => {
    const compiled = compileProfile(DEFAULT_PROFILE, 0);
    for (let i = 0; i < UNKNOWN_CLASS_CACHE + 10; i++)
      decide(compiled, decisionInput({ failure_class: `gremlin_${i}`, attempt: 1 }), open);
    expect(Object.keys(compiled.tables).sort()).toEqual([...compiled.byClass.keys()].sort());
    expect(compiled.tables.gremlin_0).toBeUndefined();
    const again = decide(
      compiled,
      decisionInput({ memrl_mode: "enforce", failure_class: "gremlin_0", attempt: 1 }),
      open,
    );
    expect(again.reason).toBe('unknown failure_class "gremlin_0": fail closed');
    expect(compiled.tables.gremlin_0).toBeDefined();
  });
});
