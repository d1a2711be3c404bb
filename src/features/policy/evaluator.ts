// The pure MemRL evaluator: attempt buckets, profile compilation into a lookup table, and decide().
import {
  ATTEMPT_BUCKETS,
  type Action,
  type AttemptBucket,
  FAILURE_CLASSES,
  type FailureClass,
  MEMRL_MODES,
  type MemrlMode,
  type MemrlPolicyProfile,
  type PolicyRule,
} from "../../../contracts/memrl-policy";

export const DEFAULT_MAX_ATTEMPTS = 3;

const MODE_RANK: Record<MemrlMode, number> = { off: 0, observe: 1, enforce: 2 };
const KNOWN_CLASSES = new Set<string>(FAILURE_CLASSES);

/** Bucket of a 1-indexed attempt against max_attempts (seed 000 / DESIGN §4). */
export function attemptBucket(attempt: number, maxAttempts: number): AttemptBucket {
  if (maxAttempts <= 0) return "overflow";
  if (attempt <= 1) return "initial";
  if (attempt < maxAttempts) return "middle";
  if (attempt === maxAttempts) return "final";
  return "overflow";
}

export function lowerMode(a: MemrlMode, b: MemrlMode): MemrlMode {
  return MODE_RANK[a] <= MODE_RANK[b] ? a : b;
}

export function isKnownFailureClass(value: string): value is FailureClass {
  return KNOWN_CLASSES.has(value);
}

/** Orders candidate rules: more specific first, then higher priority, then smaller rule_id. */
export function compareRules(a: PolicyRule, b: PolicyRule): number {
  const specificity = (r: PolicyRule) => (r.failure_class === "*" ? 0 : 1) + (r.attempt_bucket === "*" ? 0 : 1);
  return (
    specificity(b) - specificity(a) || b.priority - a.priority || (a.rule_id < b.rule_id ? -1 : a.rule_id > b.rule_id ? 1 : 0)
  );
}

export type CompiledProfile = {
  readonly version: number;
  readonly profile: MemrlPolicyProfile;
  /** key `${mode}|${class}|${bucket}` → the winning rule; absent when no rule matches */
  readonly table: ReadonlyMap<string, PolicyRule>;
};

const key = (mode: MemrlMode, failureClass: FailureClass, bucket: AttemptBucket) => `${mode}|${failureClass}|${bucket}`;

/** Resolves every (mode, known class, bucket) once, so a decision is one Map lookup. */
export function compileProfile(profile: MemrlPolicyProfile, version: number): CompiledProfile {
  const table = new Map<string, PolicyRule>();
  for (const mode of MEMRL_MODES) {
    const modeRules = profile.rules.filter((r) => r.memrl_mode === mode);
    for (const failureClass of FAILURE_CLASSES) {
      for (const bucket of ATTEMPT_BUCKETS) {
        const candidates = modeRules.filter(
          (r) =>
            (r.failure_class === "*" || r.failure_class === failureClass) &&
            (r.attempt_bucket === "*" || r.attempt_bucket === bucket),
        );
        if (candidates.length === 0) continue;
        candidates.sort(compareRules);
        table.set(key(mode, failureClass, bucket), candidates[0] as PolicyRule);
      }
    }
  }
  return { version, profile, table };
}

export type DecisionInput = {
  memrl_mode?: MemrlMode;
  failure_class?: string;
  attempt?: number;
  max_attempts?: number;
  attempt_bucket?: AttemptBucket;
  legacy_action?: Action;
};

export type DecisionContext = {
  /** the team's mode ceiling (lowered by the rollback matrix) */
  ceiling: MemrlMode;
  /** policy-memory max_attempts_override per failure class, from the caller's snapshot */
  maxAttemptsOverrides?: Partial<Record<string, number>>;
};

export type Decision = {
  requested_mode: MemrlMode;
  memrl_mode: MemrlMode;
  failure_class: string | null;
  attempt_bucket: AttemptBucket | null;
  action: Action;
  rule_id: string;
  reason: string;
  selected_action: Action;
};

function resolveBucket(input: DecisionInput, context: DecisionContext): AttemptBucket | null {
  if (input.attempt_bucket !== undefined) return input.attempt_bucket;
  if (input.attempt === undefined) return null;
  const maxAttempts =
    input.max_attempts ??
    (input.failure_class === undefined ? undefined : context.maxAttemptsOverrides?.[input.failure_class]) ??
    DEFAULT_MAX_ATTEMPTS;
  return attemptBucket(input.attempt, maxAttempts);
}

/** Deterministic: same input, same compiled profile, same context → same decision. */
export function decide(compiled: CompiledProfile, input: DecisionInput, context: DecisionContext): Decision {
  const { profile } = compiled;
  const requested = input.memrl_mode ?? profile.default_mode;
  const mode = lowerMode(requested, context.ceiling);
  const bucket = resolveBucket(input, context);
  const failureClass = input.failure_class ?? null;
  const select = (action: Action): Action =>
    mode !== "enforce" && input.legacy_action !== undefined ? input.legacy_action : action;
  const result = (action: Action, rule_id: string, reason: string): Decision => ({
    requested_mode: requested,
    memrl_mode: mode,
    failure_class: failureClass,
    attempt_bucket: bucket,
    action,
    rule_id,
    reason,
    selected_action: select(action),
  });

  if (failureClass === null || bucket === null) {
    const missing = failureClass === null ? "failure_class" : "attempt information";
    return result(profile.missing_metadata_action, "default.missing_metadata", `missing ${missing}: fail closed`);
  }
  if (!isKnownFailureClass(failureClass)) {
    return result(
      profile.unknown_failure_class_action,
      "default.unknown_failure_class",
      `unknown failure_class "${failureClass}": fail closed`,
    );
  }
  const rule = compiled.table.get(key(mode, failureClass, bucket));
  if (rule === undefined) {
    return result(
      profile.unknown_failure_class_action,
      "default.no_matching_rule",
      `no ${mode} rule matches ${failureClass}/${bucket}: fail closed`,
    );
  }
  return result(
    rule.action,
    rule.rule_id,
    `${mode} rule ${rule.rule_id} (class ${rule.failure_class}, bucket ${rule.attempt_bucket}, priority ${rule.priority})`,
  );
}
