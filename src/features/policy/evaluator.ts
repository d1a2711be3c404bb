// The pure MemRL evaluator: attempt buckets, profile compilation into a lookup table, and decide().
import {
  type Action,
  ATTEMPT_BUCKETS,
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

/** Index into ATTEMPT_BUCKETS of a 1-indexed attempt against max_attempts. */
function bucketOf(attempt: number, maxAttempts: number): number {
  if (maxAttempts <= 0) return 3;
  if (attempt <= 1) return 0;
  if (attempt < maxAttempts) return 1;
  return attempt === maxAttempts ? 2 : 3;
}

export function attemptBucket(attempt: number, maxAttempts: number): AttemptBucket {
  return ATTEMPT_BUCKETS[bucketOf(attempt, maxAttempts)] as AttemptBucket;
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
    specificity(b) - specificity(a) ||
    b.priority - a.priority ||
    (a.rule_id < b.rule_id ? -1 : a.rule_id > b.rule_id ? 1 : 0)
  );
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
  readonly requested_mode: MemrlMode;
  readonly memrl_mode: MemrlMode;
  readonly failure_class: string | null;
  readonly attempt_bucket: AttemptBucket | null;
  readonly action: Action;
  readonly rule_id: string;
  readonly reason: string;
  readonly selected_action: Action;
};

export type CompiledProfile = {
  readonly version: number;
  readonly profile: MemrlPolicyProfile;
  /** the winning rule per `${mode}|${class}|${bucket}`; absent when no rule matches */
  readonly rules: ReadonlyMap<string, PolicyRule>;
  /**
   * Per class string, its frozen decisions indexed by `slot()`: every known class filled at compile time, each
   * unknown class (its decisions echo the string) added on first use and filled slot by slot, at most
   * UNKNOWN_CLASS_CACHE of them, oldest dropped first.
   */
  readonly byClass: Map<string, (Decision | undefined)[]>;
  /**
   * The same tables (the same arrays, kept in step with `byClass`) as properties of a prototype-less object: a
   * property read by class string costs less than `Map.get`, and the prototype's names ("constructor", "__proto__")
   * are absent. `byClass` keeps the insertion order the unknown classes are dropped in.
   */
  readonly tables: Record<string, (Decision | undefined)[] | undefined>;
  /** the decisions of inputs without a failure_class, indexed by `slot()` */
  readonly noClass: readonly Decision[];
  /** modeIndex() of the profile's default_mode, for inputs without a memrl_mode */
  readonly defaultMode: number;
};

/** How many distinct unknown class strings one compiled profile remembers; the oldest is dropped past this. */
export const UNKNOWN_CLASS_CACHE = 256;

// Index spaces of a class's decision table: requested mode × ceiling × legacy action × bucket (or none).
const LEGACIES = [undefined, "retry", "escalate"] as const;
const N_MODES = MEMRL_MODES.length;
/** bucket index N_BUCKETS - 1 stands for "no attempt information" */
const N_BUCKETS = ATTEMPT_BUCKETS.length + 1;
const MISSING_BUCKET = ATTEMPT_BUCKETS.length;
const TABLE_SIZE = N_MODES * N_MODES * LEGACIES.length * N_BUCKETS;

function slot(requested: number, ceiling: number, legacy: number, bucket: number): number {
  return ((requested * N_MODES + ceiling) * 3 + legacy) * N_BUCKETS + bucket;
}

// Plain comparisons instead of keyed lookups: the inputs are already validated against these enums.
const modeIndex = (m: MemrlMode): number => (m === "enforce" ? 2 : m === "observe" ? 1 : 0);
const legacyIndex = (a: Action | undefined): number => (a === undefined ? 0 : a === "retry" ? 1 : 2);
const bucketIndexOf = (b: AttemptBucket): number => (b === "initial" ? 0 : b === "middle" ? 1 : b === "final" ? 2 : 3);

/** bucketOf() of every attempt × max_attempts in 0..7 at `attempt << 3 | max`: the common cases without branches. */
const SMALL_BUCKETS = (() => {
  const table = new Int8Array(64);
  for (let attempt = 0; attempt < 8; attempt++)
    for (let max = 0; max < 8; max++) table[(attempt << 3) | max] = bucketOf(attempt, max);
  return table;
})();

/** bucketOf() through SMALL_BUCKETS when both are integers in 0..7 (`x & 7 === x` is false for anything else). */
function bucketFor(attempt: number, max: number): number {
  return (attempt & 7) === attempt && (max & 7) === max
    ? (SMALL_BUCKETS[(attempt << 3) | max] as number)
    : bucketOf(attempt, max);
}

const ruleKey = (mode: MemrlMode, failureClass: FailureClass, bucket: AttemptBucket) =>
  `${mode}|${failureClass}|${bucket}`;

function buildDecision(
  profile: MemrlPolicyProfile,
  requested: MemrlMode,
  ceiling: MemrlMode,
  legacy: Action | undefined,
  failureClass: string | null,
  bucket: AttemptBucket | null,
  rules: ReadonlyMap<string, PolicyRule>,
): Decision {
  const mode = lowerMode(requested, ceiling);
  const make = (action: Action, rule_id: string, reason: string): Decision =>
    Object.freeze({
      requested_mode: requested,
      memrl_mode: mode,
      failure_class: failureClass,
      attempt_bucket: bucket,
      action,
      rule_id,
      reason,
      selected_action: mode !== "enforce" && legacy !== undefined ? legacy : action,
    });
  if (failureClass === null || bucket === null) {
    const missing = failureClass === null ? "failure_class" : "attempt information";
    return make(profile.missing_metadata_action, "default.missing_metadata", `missing ${missing}: fail closed`);
  }
  if (!isKnownFailureClass(failureClass)) {
    return make(
      profile.unknown_failure_class_action,
      "default.unknown_failure_class",
      `unknown failure_class "${failureClass}": fail closed`,
    );
  }
  const rule = rules.get(ruleKey(mode, failureClass, bucket));
  if (rule === undefined) {
    return make(
      profile.unknown_failure_class_action,
      "default.no_matching_rule",
      `no ${mode} rule matches ${failureClass}/${bucket}: fail closed`,
    );
  }
  return make(
    rule.action,
    rule.rule_id,
    `${mode} rule ${rule.rule_id} (class ${rule.failure_class}, bucket ${rule.attempt_bucket}, priority ${rule.priority})`,
  );
}

/**
 * Resolves the winning rule of every (mode, known class, bucket), then precomputes the full decision for
 * every (requested mode, ceiling, legacy action, class, bucket), so deciding is arithmetic plus one array read.
 */
export function compileProfile(profile: MemrlPolicyProfile, version: number): CompiledProfile {
  const rules = new Map<string, PolicyRule>();
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
        rules.set(ruleKey(mode, failureClass, bucket), candidates[0] as PolicyRule);
      }
    }
  }
  const tableOf = (failureClass: string | null): Decision[] => {
    const table: Decision[] = new Array(TABLE_SIZE);
    for (const [r, requested] of MEMRL_MODES.entries())
      for (const [c, ceiling] of MEMRL_MODES.entries())
        for (const [l, legacy] of LEGACIES.entries())
          for (let b = 0; b < N_BUCKETS; b++)
            table[slot(r, c, l, b)] = buildDecision(
              profile,
              requested,
              ceiling,
              legacy,
              failureClass,
              b === MISSING_BUCKET ? null : (ATTEMPT_BUCKETS[b] as AttemptBucket),
              rules,
            );
    return table;
  };
  const byClass = new Map<string, (Decision | undefined)[]>();
  const tables: Record<string, Decision[]> = Object.create(null);
  for (const failureClass of FAILURE_CLASSES) {
    const table = tableOf(failureClass);
    byClass.set(failureClass, table);
    tables[failureClass] = table;
  }
  return {
    version,
    profile,
    rules,
    byClass,
    tables,
    noClass: tableOf(null),
    defaultMode: modeIndex(profile.default_mode),
  };
}

/** The table of a class string outside FAILURE_CLASSES: added empty, after dropping the oldest unknown one if full. */
function addUnknownClass(compiled: CompiledProfile, failureClass: string): (Decision | undefined)[] {
  const byClass = compiled.byClass;
  if (byClass.size >= FAILURE_CLASSES.length + UNKNOWN_CLASS_CACHE) {
    // Caller-chosen strings are unbounded: the known classes come first in insertion order and are never dropped.
    for (const key of byClass.keys())
      if (!isKnownFailureClass(key)) {
        byClass.delete(key);
        delete compiled.tables[key];
        break;
      }
  }
  // holey like the known classes' tables, so reads of both see one kind of array
  const table: (Decision | undefined)[] = new Array(TABLE_SIZE);
  byClass.set(failureClass, table);
  compiled.tables[failureClass] = table;
  return table;
}

/** An unknown class's decision for one slot, built and stored on its first use (its table added if new). */
function decideUnknownClass(
  compiled: CompiledProfile,
  failureClass: string,
  i: number,
  requested: number,
  ceiling: number,
  legacy: number,
  bucket: number,
): Decision {
  const table = compiled.tables[failureClass] ?? addUnknownClass(compiled, failureClass);
  const built = buildDecision(
    compiled.profile,
    MEMRL_MODES[requested] as MemrlMode,
    MEMRL_MODES[ceiling] as MemrlMode,
    LEGACIES[legacy],
    failureClass,
    bucket === MISSING_BUCKET ? null : (ATTEMPT_BUCKETS[bucket] as AttemptBucket),
    compiled.rules,
  );
  table[i] = built;
  return built;
}

/**
 * The six fields decide() reads, every key present (undefined when absent) and always in this order. Callers build
 * the input with this, so decide() only ever sees one object shape and each of its reads is a plain field load;
 * a request body as parsed comes in one shape per combination of present fields (32 over the input space), where
 * the same reads go through the engine's megamorphic lookup.
 */
export function decisionInput(fields: DecisionInput): DecisionInput {
  return {
    memrl_mode: fields.memrl_mode,
    failure_class: fields.failure_class,
    attempt: fields.attempt,
    max_attempts: fields.max_attempts,
    attempt_bucket: fields.attempt_bucket,
    legacy_action: fields.legacy_action,
  };
}

/** The policy-memory override of max_attempts for the class, else DEFAULT_MAX_ATTEMPTS. */
function maxAttemptsOf(context: DecisionContext, failureClass: string | undefined): number {
  const overrides = context.maxAttemptsOverrides;
  if (overrides === undefined || failureClass === undefined) return DEFAULT_MAX_ATTEMPTS;
  // own keys only: a class named "constructor" or "toString" must not read Object.prototype's members
  const override = Object.hasOwn(overrides, failureClass) ? overrides[failureClass] : undefined;
  return override === undefined ? DEFAULT_MAX_ATTEMPTS : override;
}

/**
 * Deterministic: same input, same compiled profile, same context → same decision (a shared frozen object).
 * Every input is index arithmetic, one property read of its class's table and one array read; an unknown class's
 * slot is built once, on its first use. Any object with these fields decides the same; one built by decisionInput()
 * decides fastest (see there).
 */
export function decide(compiled: CompiledProfile, input: DecisionInput, context: DecisionContext): Decision {
  const failureClass = input.failure_class;
  const given = input.attempt_bucket;
  const attempt = input.attempt;
  let bucket: number;
  if (given !== undefined) bucket = bucketIndexOf(given);
  else if (attempt === undefined) bucket = MISSING_BUCKET;
  else {
    const max = input.max_attempts;
    bucket = bucketFor(attempt, max === undefined ? maxAttemptsOf(context, failureClass) : max);
  }
  const mode = input.memrl_mode;
  const requested = mode === undefined ? compiled.defaultMode : modeIndex(mode);
  const ceiling = modeIndex(context.ceiling);
  const legacy = legacyIndex(input.legacy_action);
  const i = slot(requested, ceiling, legacy, bucket);
  if (failureClass === undefined) return compiled.noClass[i] as Decision;
  const table = compiled.tables[failureClass];
  const decision = table === undefined ? undefined : table[i];
  return decision === undefined
    ? decideUnknownClass(compiled, failureClass, i, requested, ceiling, legacy, bucket)
    : decision;
}
