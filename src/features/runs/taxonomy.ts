// The retry taxonomy (what each failure class gets: back-off retries, a gate, a dead letter or a replan) combined
// with the MemRL decision and the run's policy-memory snapshot: the next step after a failed attempt.

import { RUN_FAILURE_CLASSES, RUN_TO_MEMRL } from "../../../contracts/failure-classes";
import type { MemrlMode } from "../../../contracts/memrl-policy";
import { FAILURE_CLASSES, type FailureClass } from "../../../contracts/memrl-policy";
import { type CompiledProfile, type Decision, decide, decisionInput } from "../policy/domain";
import type { PolicySnapshot } from "./snapshot";

export const TAXONOMY_CLASSES = RUN_FAILURE_CLASSES;
export type TaxonomyClass = (typeof TAXONOMY_CLASSES)[number];

type TaxonomyRule =
  | { kind: "retry"; backoff_ms: readonly number[]; max_retries: number; memrl: FailureClass }
  | { kind: "gate"; policy_key: string; max_retries: number; memrl: FailureClass }
  | { kind: "dead_letter"; memrl: FailureClass }
  | { kind: "replan"; memrl: FailureClass };

/**
 * The taxonomy table. Where a class names no back-off of its own (timeout, tool_error) the 1 s / 4 s steps apply;
 * budget_exceeded is refused and retried once (with trimmed context, by the worker). `memrl` is the MemRL failure class the
 * decision is asked with, so a team's MemRL profile applies to taxonomy classes too.
 */
export const TAXONOMY: Record<TaxonomyClass, TaxonomyRule> = {
  rate_limit: { kind: "retry", backoff_ms: [1000, 4000, 10000], max_retries: 3, memrl: RUN_TO_MEMRL.rate_limit },
  transient: { kind: "retry", backoff_ms: [1000, 4000, 10000], max_retries: 3, memrl: RUN_TO_MEMRL.transient },
  timeout: { kind: "retry", backoff_ms: [1000, 4000], max_retries: 2, memrl: RUN_TO_MEMRL.timeout },
  tool_error: { kind: "retry", backoff_ms: [1000, 4000], max_retries: 2, memrl: RUN_TO_MEMRL.tool_error },
  schema_invalid: { kind: "gate", policy_key: "schema_invalid", max_retries: 1, memrl: RUN_TO_MEMRL.schema_invalid },
  wrong_value: { kind: "dead_letter", memrl: RUN_TO_MEMRL.wrong_value },
  capability_missing: { kind: "replan", memrl: RUN_TO_MEMRL.capability_missing },
  budget_exceeded: { kind: "retry", backoff_ms: [0], max_retries: 1, memrl: RUN_TO_MEMRL.budget_exceeded },
};

/** A MemRL failure class reported directly: retried like a transient error, at most 3 attempts by default. */
const MEMRL_CLASS_RULE = { backoff_ms: [1000, 4000, 10000], max_retries: 2 } as const;
const MAX_RETRY_DELAY_MS = 3_600_000;

const isTaxonomyClass = (c: string): c is TaxonomyClass => (TAXONOMY_CLASSES as readonly string[]).includes(c);
const isMemrlClass = (c: string): c is FailureClass => (FAILURE_CLASSES as readonly string[]).includes(c);

export type NextStep =
  | { next: "complete" }
  | { next: "retry"; retry_after_ms: number }
  | { next: "gate"; policy_key: string }
  | { next: "dead_letter"; reason_code: string }
  | { next: "replan" };

export type StepDecision = Decision & {
  profile_version: number;
  max_attempts: number;
  attempt: number;
  ceiling: MemrlMode;
  /** the taxonomy's own action, given to the evaluator as legacy_action */
  legacy_action: "retry" | "escalate";
};

/**
 * The decision log's inputs for a run-step decision: exactly what the evaluator was given (legacy_action always,
 * even when it equals the policy's action), so a replay under the same profile reproduces every logged decision.
 */
export function decisionLogInputs(d: StepDecision, reported: string | null): Record<string, unknown> {
  return {
    failure_class: d.failure_class ?? undefined,
    reported_failure_class: reported,
    attempt: d.attempt,
    max_attempts: d.max_attempts,
    legacy_action: d.legacy_action,
  };
}

export type PolicyContext = { compiled: CompiledProfile; ceiling: MemrlMode };

export type FailureInput = {
  failure_class: string | null;
  /** 1-indexed attempt that just failed */
  attempt: number;
  /** a reissued dead letter gets one attempt only */
  single_attempt: boolean;
};

/** The plan the taxonomy alone gives, before MemRL; pure. */
export function taxonomyPlan(
  input: FailureInput,
  snapshot: PolicySnapshot,
): { step: NextStep; maxAttempts: number; memrlClass: string | null } {
  const fc = input.failure_class;
  if (fc === null)
    return { step: { next: "dead_letter", reason_code: "missing_failure_class" }, maxAttempts: 1, memrlClass: null };
  const adj = snapshot.retry_adjustments[fc];
  const multiplier = adj?.backoff_multiplier ?? 1;
  const override = adj?.max_attempts_override ?? null;
  const delay = (backoff: readonly number[]) =>
    Math.min(
      MAX_RETRY_DELAY_MS,
      Math.round((backoff[Math.min(input.attempt - 1, backoff.length - 1)] ?? 0) * multiplier),
    );

  let rule: TaxonomyRule;
  if (isTaxonomyClass(fc)) rule = TAXONOMY[fc];
  else if (isMemrlClass(fc)) rule = { kind: "retry", ...MEMRL_CLASS_RULE, memrl: fc };
  else return { step: { next: "dead_letter", reason_code: "unknown_failure_class" }, maxAttempts: 1, memrlClass: fc };

  switch (rule.kind) {
    case "dead_letter":
      return { step: { next: "dead_letter", reason_code: fc }, maxAttempts: 1, memrlClass: rule.memrl };
    case "replan":
      return { step: { next: "replan" }, maxAttempts: 1, memrlClass: rule.memrl };
    case "retry":
    case "gate": {
      const maxAttempts = input.single_attempt ? 1 : (override ?? rule.max_retries + 1);
      if (input.attempt >= maxAttempts) {
        const reason_code = input.single_attempt ? `reissue_failed:${fc}` : `retries_exhausted:${fc}`;
        return { step: { next: "dead_letter", reason_code }, maxAttempts, memrlClass: rule.memrl };
      }
      const step: NextStep =
        rule.kind === "gate"
          ? { next: "gate", policy_key: rule.policy_key }
          : { next: "retry", retry_after_ms: delay(rule.backoff_ms) };
      return { step, maxAttempts, memrlClass: rule.memrl };
    }
  }
}

/**
 * Taxonomy first, MemRL on top: the taxonomy's plan is the legacy action (retry for retry/gate, escalate
 * otherwise); in enforce mode MemRL may escalate a retry into a dead letter. MemRL never turns a taxonomy
 * dead letter or replan into a retry: the taxonomy's limits are hard.
 */
export function nextAfterFailure(
  input: FailureInput,
  snapshot: PolicySnapshot,
  policy: PolicyContext,
): { step: NextStep; decision: StepDecision } {
  const plan = taxonomyPlan(input, snapshot);
  const legacy = plan.step.next === "retry" || plan.step.next === "gate" ? "retry" : "escalate";
  const overrides: Record<string, number> = {};
  for (const [k, v] of Object.entries(snapshot.retry_adjustments)) {
    if (v.max_attempts_override !== null) overrides[k] = v.max_attempts_override;
  }
  const raw = decide(
    policy.compiled,
    decisionInput({
      failure_class: plan.memrlClass === null ? undefined : plan.memrlClass,
      attempt: input.attempt,
      max_attempts: plan.maxAttempts,
      legacy_action: legacy,
    }),
    { ceiling: policy.ceiling, maxAttemptsOverrides: overrides },
  );
  const decision: StepDecision = {
    ...raw,
    profile_version: policy.compiled.version,
    ceiling: policy.ceiling,
    max_attempts: plan.maxAttempts,
    attempt: input.attempt,
    legacy_action: legacy,
  };
  if (raw.selected_action === "escalate" && (plan.step.next === "retry" || plan.step.next === "gate")) {
    return { step: { next: "dead_letter", reason_code: `escalated:${raw.rule_id}` }, decision };
  }
  return { step: plan.step, decision };
}
