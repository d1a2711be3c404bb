// The pure checks of a promotion to enforce (seed 000): acknowledgements per changed class, parity, conformance.
import {
  ATTEMPT_BUCKETS,
  type AttemptBucket,
  FAILURE_CLASSES,
  type FailureClass,
  type PolicyRule,
} from "../../../contracts/memrl-policy";
import {
  type CompiledProfile,
  type Decision,
  type DecisionContext,
  type DecisionInput,
  decide,
  decisionInput,
} from "./evaluator";
import type { ReplayReport } from "./replay";
import type { LoggedDecision } from "./store/policy-store-port";

/**
 * A failure class whose replay changes more than this many logged decisions needs `ack:<class>` in the approval note
 * of the promotion's gate: a handful of changes is what any rule edit moves; past it a human says they saw it.
 */
export const ACK_THRESHOLD = 5;

/** The classes (replay's `by_class` labels) an approver must acknowledge, sorted. */
export function acksRequired(byClass: ReplayReport["by_class"], threshold = ACK_THRESHOLD): string[] {
  return byClass
    .filter((c) => c.changes > threshold)
    .map((c) => c.failure_class)
    .sort();
}

export type ParityFailure = { decision_id: string; legacy_action: string; selected_action: string; rule_id: string };
export type ParityReport = { checked: number; failures: ParityFailure[] };

type Decide = (compiled: CompiledProfile, input: DecisionInput, context: DecisionContext) => Decision;

/**
 * Parity (seed 000: `off` is "the strict parity path"): every logged decision that carried a legacy_action, decided
 * again under the candidate with memrl_mode `off`, selects exactly that legacy action. `decideWith` is the evaluator
 * (a parameter so a test can show what a broken one is refused for).
 */
export function parityCheck(
  compiled: CompiledProfile,
  logged: readonly LoggedDecision[],
  decideWith: Decide = decide,
): ParityReport {
  const failures: ParityFailure[] = [];
  let checked = 0;
  for (const entry of logged) {
    const legacy = entry.inputs.legacy_action;
    if (legacy !== "retry" && legacy !== "escalate") continue;
    checked++;
    const input = decisionInput({ ...(entry.inputs as DecisionInput), memrl_mode: "off" });
    const d = decideWith(compiled, input, { ceiling: entry.ceiling });
    if (d.selected_action !== legacy)
      failures.push({
        decision_id: entry.decision_id,
        legacy_action: legacy,
        selected_action: d.selected_action,
        rule_id: d.rule_id,
      });
  }
  return { checked, failures };
}

/** One built-in conformance case: an id, what it pins, and the check (a reason when the profile fails it). */
export type ConformanceCase = {
  id: string;
  about: string;
  check: (compiled: CompiledProfile, decideWith: Decide) => string | null;
};

const ENFORCE = { ceiling: "enforce" } as const;

/** A case that decides `input` under enforce and expects these fields of the decision. */
function decisionCase(
  id: string,
  about: string,
  input: DecisionInput,
  expected: Partial<Pick<Decision, "action" | "selected_action" | "rule_id" | "attempt_bucket">>,
): ConformanceCase {
  return {
    id,
    about,
    check: (compiled, decideWith) => {
      const d = decideWith(compiled, decisionInput({ memrl_mode: "enforce", ...input }), ENFORCE);
      const wrong = Object.entries(expected).filter(([k, v]) => d[k as keyof typeof expected] !== v);
      return wrong.length === 0
        ? null
        : wrong.map(([k, v]) => `${k} is ${d[k as keyof typeof expected]}, expected ${v}`).join("; ");
    },
  };
}

/** The seed's tie-break order, written again apart from the evaluator's compareRules so each checks the other. */
function referenceWinner(rules: readonly PolicyRule[], c: FailureClass, b: AttemptBucket): PolicyRule | undefined {
  const matching = rules.filter(
    (r) =>
      r.memrl_mode === "enforce" &&
      (r.failure_class === "*" || r.failure_class === c) &&
      (r.attempt_bucket === "*" || r.attempt_bucket === b),
  );
  const exact = (r: PolicyRule) => Number(r.failure_class !== "*") + Number(r.attempt_bucket !== "*");
  let best: PolicyRule | undefined;
  for (const r of matching) {
    if (
      best === undefined ||
      exact(r) > exact(best) ||
      (exact(r) === exact(best) && r.priority > best.priority) ||
      (exact(r) === exact(best) && r.priority === best.priority && r.rule_id < best.rule_id)
    )
      best = r;
  }
  return best;
}

const BUCKET_CASES: [number, number, AttemptBucket][] = [
  [0, 3, "initial"],
  [1, 3, "initial"],
  [2, 3, "middle"],
  [3, 3, "final"],
  [4, 3, "overflow"],
  [1, 1, "initial"],
  [2, 1, "overflow"],
  [1, 0, "overflow"],
];

const DECLARED_ORDER = ["specificity", "priority", "rule_id"] as const;

/**
 * The built-in MemRL conformance cases (seed 000 "Boundary and Default Behavior", docs/learning.md): fail-closed
 * defaults, attempt buckets and the tie-break order. A profile is promoted to enforce only when it passes every one.
 */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  decisionCase(
    "fail_closed.missing_failure_class",
    "no failure_class escalates (default.missing_metadata)",
    { attempt: 1, max_attempts: 3 },
    { action: "escalate", rule_id: "default.missing_metadata" },
  ),
  decisionCase(
    "fail_closed.missing_attempt",
    "no attempt information escalates (default.missing_metadata)",
    { failure_class: "vibe_fail" },
    { action: "escalate", rule_id: "default.missing_metadata" },
  ),
  decisionCase(
    "fail_closed.unknown_failure_class",
    "a class outside the seven escalates (default.unknown_failure_class)",
    { failure_class: "not_a_memrl_class", attempt: 1, max_attempts: 3 },
    { action: "escalate", rule_id: "default.unknown_failure_class" },
  ),
  decisionCase(
    "fail_closed.enforce_ignores_legacy",
    "in enforce the fail-closed escalate is selected over a legacy retry",
    { failure_class: "not_a_memrl_class", attempt: 1, max_attempts: 3, legacy_action: "retry" },
    { selected_action: "escalate" },
  ),
  ...BUCKET_CASES.map(([attempt, max, bucket]) =>
    decisionCase(
      `bucket.attempt_${attempt}_of_${max}`,
      `attempt ${attempt} of max_attempts ${max} is bucket ${bucket}`,
      { failure_class: "phase_timeout", attempt, max_attempts: max },
      { attempt_bucket: bucket },
    ),
  ),
  ...FAILURE_CLASSES.map((c) =>
    decisionCase(
      `bucket.overflow_escalates.${c}`,
      `${c} past max_attempts (overflow) escalates: enforce never retries beyond the budget`,
      { failure_class: c, attempt: 4, max_attempts: 3 },
      { action: "escalate" },
    ),
  ),
  {
    id: "tie_break.declared_order",
    about: "tie_break_rules declare specificity, then priority, then rule_id (the order the evaluator applies)",
    check: ({ profile }) => {
      const heads = profile.tie_break_rules.slice(0, 3).map((r) => r.trim().toLowerCase().split(/[\s:]/)[0]);
      return heads.join(",") === DECLARED_ORDER.join(",")
        ? null
        : `tie_break_rules begin with ${JSON.stringify(heads)}, expected ${JSON.stringify(DECLARED_ORDER)}`;
    },
  },
  {
    id: "tie_break.resolution",
    about: "each enforce class × bucket is decided by the rule the seed's tie-break order names",
    check: (compiled, decideWith) => {
      const wrong: string[] = [];
      for (const c of FAILURE_CLASSES)
        for (const b of ATTEMPT_BUCKETS) {
          const want = referenceWinner(compiled.profile.rules, c, b)?.rule_id ?? "default.no_matching_rule";
          const got = decideWith(
            compiled,
            decisionInput({ memrl_mode: "enforce", failure_class: c, attempt_bucket: b }),
            ENFORCE,
          );
          if (got.rule_id !== want) wrong.push(`${c}/${b}: ${got.rule_id}, expected ${want}`);
        }
      return wrong.length === 0 ? null : wrong.join("; ");
    },
  },
];

export type ConformanceFailure = { id: string; about: string; reason: string };
export type ConformanceReport = { cases: number; failures: ConformanceFailure[] };

/** Runs every conformance case against the compiled candidate. */
export function conformanceCheck(
  compiled: CompiledProfile,
  cases: readonly ConformanceCase[] = CONFORMANCE_CASES,
  decideWith: Decide = decide,
): ConformanceReport {
  const failures: ConformanceFailure[] = [];
  for (const c of cases) {
    const reason = c.check(compiled, decideWith);
    if (reason !== null) failures.push({ id: c.id, about: c.about, reason });
  }
  return { cases: cases.length, failures };
}

/** the refusal lists at most this many failing cases by id (the counts are complete) */
const LISTED_FAILURES = 20;

/** The ids of every failing check, `conformance.<case>` and `parity.<decision_id>`, for the refusal. */
export function failingCases(parity: ParityReport, conformance: ConformanceReport): string[] {
  return [
    ...conformance.failures.map((f) => `conformance.${f.id}`),
    ...parity.failures.map((f) => `parity.${f.decision_id}`),
  ].slice(0, LISTED_FAILURES);
}
