// Replay is faithful: run-step decisions logged through decisionLogInputs replay to exactly what live evaluation gives.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MemrlMode, MemrlPolicyProfile } from "../../../contracts/memrl-policy";
import { compileProfile, DEFAULT_PROFILE, replayDecisions } from "../policy/domain";
import type { LoggedDecision } from "../policy/store/policy-store-port";
import { buildSnapshot } from "./snapshot";
import { decisionLogInputs, nextAfterFailure, TAXONOMY_CLASSES } from "./taxonomy";

const MODES: MemrlMode[] = ["off", "observe", "enforce"];

const stepArb = fc.record({
  failure_class: fc.constantFrom<string | null>(...TAXONOMY_CLASSES, null, "made_up"),
  attempt: fc.integer({ min: 1, max: 8 }),
  single: fc.boolean(),
  ceiling: fc.constantFrom(...MODES),
  override: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
});

/** a profile derived from the default: its default mode and some rules' actions changed */
const profileArb = fc
  .record({ mode: fc.constantFrom(...MODES), flips: fc.array(fc.nat(), { maxLength: 12 }) })
  .map(({ mode, flips }): MemrlPolicyProfile => {
    const rules = DEFAULT_PROFILE.rules.map((r) => ({ ...r }));
    for (const f of flips) {
      const r = rules[f % rules.length];
      if (r) r.action = r.action === "retry" ? "escalate" : "retry";
    }
    return { ...DEFAULT_PROFILE, default_mode: mode, rules };
  });

type Step = {
  failure_class: string | null;
  attempt: number;
  single: boolean;
  ceiling: MemrlMode;
  override: number | null;
};

const compiled = new WeakMap<MemrlPolicyProfile, ReturnType<typeof compileProfile>>();
function compiledOf(profile: MemrlPolicyProfile, version: number) {
  let c = compiled.get(profile);
  if (!c) {
    c = compileProfile(profile, version);
    compiled.set(profile, c);
  }
  return c;
}

function live(profile: MemrlPolicyProfile, version: number, s: Step) {
  const snapshot = buildSnapshot(
    s.override === null || s.failure_class === null
      ? []
      : [{ failureClass: s.failure_class, backoffMultiplier: 1, maxAttemptsOverride: s.override }],
    0,
  );
  return nextAfterFailure({ failure_class: s.failure_class, attempt: s.attempt, single_attempt: s.single }, snapshot, {
    compiled: compiledOf(profile, version),
    ceiling: s.ceiling,
  }).decision;
}

function logged(profile: MemrlPolicyProfile, steps: Step[]): LoggedDecision[] {
  return steps.map((s, i) => {
    const d = live(profile, 1, s);
    return {
      decision_id: `d${i}`,
      team_id: "t",
      run_id: "r",
      task_id: null,
      inputs: JSON.parse(JSON.stringify(decisionLogInputs(d, s.failure_class))),
      inputs_digest: "",
      profile_version: 1,
      requested_mode: d.requested_mode,
      effective_mode: d.memrl_mode,
      ceiling: d.ceiling,
      failure_class: d.failure_class,
      attempt_bucket: d.attempt_bucket,
      rule_id: d.rule_id,
      raw_action: d.action,
      selected_action: d.selected_action,
      created_at: i,
    };
  });
}

describe("replay fidelity", () => {
  it("property: replaying logged run-step decisions under the profile that made them changes nothing", () => {
    fc.assert(
      fc.property(profileArb, fc.array(stepArb, { minLength: 1, maxLength: 30 }), (profile, steps) => {
        const report = replayDecisions(profile, logged(profile, steps));
        expect(report.changed).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it("property: a candidate's replay gives, decision by decision, what live evaluation under it would select", () => {
    fc.assert(
      fc.property(
        profileArb,
        profileArb,
        fc.array(stepArb, { minLength: 1, maxLength: 20 }),
        (made, candidate, steps) => {
          const entries = logged(made, steps);
          steps.forEach((s, i) => {
            const entry = entries[i] as LoggedDecision;
            const report = replayDecisions(candidate, [entry]);
            const after = report.examples[0]?.after ?? {
              rule_id: entry.rule_id,
              action: entry.raw_action,
              selected_action: entry.selected_action,
            };
            const b = live(candidate, 2, s);
            expect(after).toEqual({ rule_id: b.rule_id, action: b.action, selected_action: b.selected_action });
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  it("logs legacy_action even when it equals the policy's action", () => {
    const d = live(DEFAULT_PROFILE, 1, {
      failure_class: "transient",
      attempt: 1,
      single: false,
      ceiling: "enforce",
      override: null,
    });
    expect(d.selected_action).toBe(d.action);
    expect(decisionLogInputs(d, "transient")).toMatchObject({ legacy_action: "retry" });
  });
});
