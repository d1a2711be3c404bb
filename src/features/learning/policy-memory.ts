// Policy memory, pure: decay on read, bounded weights, the circular-learning breaker, snapshots, ranking.
import { DAY_MS } from "../../lib/time";

export { DAY_MS };

import { z } from "zod";
import type { PolicyMemoryEntryView } from "./policy-memory-port";
import type { EntryState, RetryState } from "./store/learning-store-port";

export type { EntryState, RetryState };

export const DECAY_BASE = 0.95;
export const DECAY_FLOOR = 0.1;
export const WEIGHT_MIN = 0.1;
export const WEIGHT_MAX = 2.0;
export const COLD_START_WEIGHT = 1.0;
/** identical failing outcomes in a row after which an entry stops learning (circular learning) */
export const CIRCUIT_BREAK_AFTER = 3;
export const SNAPSHOT_VERSION = "1.0.0";
export const STRAT_RESET_CODE = "DTL-STRAT-001";
/** sha256("") — the context hash of events that name no query type */
export const DEFAULT_CONTEXT_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/** 0.95^days < 0.1 exactly when days > ln 0.1 / ln 0.95 (≈ 44.89 d); in whole milliseconds: */
export const ARCHIVE_AFTER_MS = Math.floor((Math.log(DECAY_FLOOR) / Math.log(DECAY_BASE)) * DAY_MS);

/** One skill's result in one run (W4: a run contributes at most one outcome per skill and context). */
export type SkillOutcome = {
  skill: string;
  contextHash: string;
  success: boolean;
  failureClass: string | null;
  costUnits: number;
  steps: number;
};

export type Decay = { raw: number; factor: number; archived: boolean };

/** W5/R3: decay_factor = 0.95^days since last use, never below 0.1; archived once the raw factor is below 0.1. */
export function decay(lastUsed: number, now: number): Decay {
  const elapsed = Math.max(0, now - lastUsed);
  const raw = DECAY_BASE ** (elapsed / DAY_MS);
  const archived = elapsed > ARCHIVE_AFTER_MS;
  return { raw, factor: archived ? DECAY_FLOOR : Math.max(raw, DECAY_FLOOR), archived };
}

/** The last_used before which an entry is archived at `now` (the archive sweep's cutoff). */
export const archiveCutoff = (now: number) => now - ARCHIVE_AFTER_MS;

/** Runaway bias: a weight outside [0.1, 2.0] is clamped (the caller logs the warning). */
export function clampWeight(weight: number): { weight: number; clamped: boolean } {
  if (weight < WEIGHT_MIN) return { weight: WEIGHT_MIN, clamped: true };
  if (weight > WEIGHT_MAX) return { weight: WEIGHT_MAX, clamped: true };
  return { weight, clamped: false };
}

/**
 * The learned base weight: twice the Laplace-smoothed success rate, 2·(s+1)/(n+2). A new entry sits at the
 * cold-start 1.0; steady success tends to 2.0; steady failure falls under 0.1 after ~39 failures (then clamped).
 */
export const learnedWeight = (success: number, failure: number) => (2 * (success + 1)) / (success + failure + 2);

export const outcomeSignature = (o: { success: boolean; failureClass: string | null }) =>
  o.success ? "success" : `failure:${o.failureClass ?? "unclassified"}`;

/** Three identical failing outcomes in a row. */
export function isCircular(recent: string[]): boolean {
  if (recent.length < CIRCUIT_BREAK_AFTER) return false;
  const tail = recent.slice(-CIRCUIT_BREAK_AFTER);
  return tail[0] !== "success" && tail.every((s) => s === tail[0]);
}

export function newEntry(ids: { entryId: string; teamId: string }, skill: string, contextHash: string, at: number) {
  return {
    entry_id: ids.entryId,
    team_id: ids.teamId,
    skill_name: skill,
    context_hash: contextHash,
    success_count: 0,
    failure_count: 0,
    avg_cost_units: 0,
    avg_steps: 0,
    base_weight: COLD_START_WEIGHT,
    recent_outcomes: [],
    learning_stopped: false,
    archived: false,
    last_used: at,
    created_at: at,
    ledger_seq: 0,
  } satisfies EntryState;
}

export type EntryUpdate =
  | { kind: "apply"; before: EntryState | null; after: EntryState; warnings: string[]; stoppedNow: boolean }
  | { kind: "skip"; reason: "learning_stopped"; before: EntryState };

/**
 * Applies one run's outcome for a skill. Counters only grow (W3); the averages are running means; the weight is
 * re-derived and clamped; the entry stops learning once its last three outcomes are the same failure.
 */
export function applyOutcome(
  before: EntryState | null,
  outcome: SkillOutcome,
  ids: { entryId: string; teamId: string },
  at: number,
): EntryUpdate {
  if (before?.learning_stopped) return { kind: "skip", reason: "learning_stopped", before };
  const base = before ?? newEntry(ids, outcome.skill, outcome.contextHash, at);
  const n = base.success_count + base.failure_count;
  const success_count = base.success_count + (outcome.success ? 1 : 0);
  const failure_count = base.failure_count + (outcome.success ? 0 : 1);
  const recent_outcomes = [...base.recent_outcomes, outcomeSignature(outcome)].slice(-CIRCUIT_BREAK_AFTER);
  const stoppedNow = isCircular(recent_outcomes);
  const { weight, clamped } = clampWeight(learnedWeight(success_count, failure_count));
  const warnings = clamped
    ? [`weight ${learnedWeight(success_count, failure_count).toFixed(4)} outside [0.1, 2.0]; clamped to ${weight}`]
    : [];
  const after: EntryState = {
    ...base,
    success_count,
    failure_count,
    avg_cost_units: (base.avg_cost_units * n + Math.max(0, outcome.costUnits)) / (n + 1),
    avg_steps: (base.avg_steps * n + Math.max(0, outcome.steps)) / (n + 1),
    base_weight: weight,
    recent_outcomes,
    learning_stopped: stoppedNow,
    archived: false,
    last_used: Math.max(base.last_used, at),
    ledger_seq: base.ledger_seq + 1,
  };
  return { kind: "apply", before, after, warnings, stoppedNow };
}

// ---- reading stored rows -------------------------------------------------------------------

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const finite = z.number().refine(Number.isFinite, "not finite");
const flag = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === 1 || v === true);
const jsonStringArray = z.string().transform((text, ctx) => {
  try {
    const parsed = z.array(z.string().max(200)).max(64).safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {}
  ctx.addIssue({ code: "custom", message: "not a JSON array of strings" });
  return z.NEVER;
});

/** A stored entry row as the D1 adapter reads it (recent_outcomes as raw JSON text). */
export const StoredEntry = z.object({
  entry_id: z.string().min(1),
  team_id: z.string().min(1),
  skill_name: z.string().min(1),
  context_hash: z.string().min(1),
  success_count: count,
  failure_count: count,
  avg_cost_units: finite.pipe(z.number().min(0)),
  avg_steps: finite.pipe(z.number().min(0)),
  base_weight: finite,
  recent_outcomes: jsonStringArray,
  learning_stopped: flag,
  archived: flag,
  last_used: count,
  created_at: count,
  ledger_seq: count,
});

export type ParsedRow<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A stored row checked by its schema; a failure names the first bad field (path: message). */
function parseStored<T>(schema: z.ZodType<T>, row: unknown): ParsedRow<T> {
  const parsed = schema.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join(".") || "(row)"}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, value: parsed.data };
}

/** Corrupted rows fail here (schema validation): the snapshot then resets to defaults with DTL-STRAT-001. */
export const parseEntry = (row: unknown): ParsedRow<EntryState> => parseStored(StoredEntry, row);

// ---- snapshot and ranking --------------------------------------------------------------------

export type RetryAdjustmentView = { backoff_multiplier: number; max_attempts_override: number | null };

/** One entry as the snapshot shows it (the port's view: runs keep it in their start snapshot). */
export type SnapshotEntry = PolicyMemoryEntryView;

export type PolicyMemorySnapshot = {
  version: typeof SNAPSHOT_VERSION;
  team_id: string;
  taken_at: string;
  last_updated: string | null;
  entries: SnapshotEntry[];
  /** skill → effective weight, for the default context (events without a query type) */
  routing_weights: Record<string, number>;
  retry_adjustments: Record<string, RetryAdjustmentView>;
  /** set when stored state failed validation and the snapshot fell back to defaults */
  reset: { code: typeof STRAT_RESET_CODE; reason: string } | null;
  warnings: string[];
};

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const iso = (ms: number) => new Date(ms).toISOString();
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function emptySnapshot(teamId: string, now: number, reset: PolicyMemorySnapshot["reset"] = null) {
  return {
    version: SNAPSHOT_VERSION,
    team_id: teamId,
    taken_at: iso(now),
    last_updated: null,
    entries: [],
    routing_weights: {},
    retry_adjustments: {},
    reset,
    warnings: reset ? [`${reset.code}: policy memory reset to defaults (${reset.reason})`] : [],
  } satisfies PolicyMemorySnapshot;
}

/** Every row parsed, or the first one's reason for failing (a corrupted row resets the whole snapshot). */
export function parseAll<T>(rows: unknown[], parse: (row: unknown) => ParsedRow<T>): ParsedRow<T[]> {
  const values: T[] = [];
  for (const row of rows) {
    const parsed = parse(row);
    if (!parsed.ok) return parsed;
    values.push(parsed.value);
  }
  return { ok: true, value: values };
}

/** One entry as the snapshot shows it at `now`: decayed, its weight clamped (with the warning when it was). */
export function entryView(e: EntryState, now: number): { view: SnapshotEntry; warning: string | null } {
  const { weight, clamped } = clampWeight(e.base_weight);
  const d = decay(e.last_used, now);
  return {
    view: {
      entry_id: e.entry_id,
      skill_name: e.skill_name,
      context_hash: e.context_hash,
      success_count: e.success_count,
      failure_count: e.failure_count,
      avg_cost_units: round6(e.avg_cost_units),
      avg_steps: round6(e.avg_steps),
      last_used: iso(e.last_used),
      created_at: iso(e.created_at),
      decay_factor: round6(d.factor),
      base_weight: round6(weight),
      effective_weight: round6(weight * d.factor),
      archived: e.archived || d.archived,
      learning_stopped: e.learning_stopped,
    },
    warning: clamped
      ? `${e.skill_name}: stored weight ${e.base_weight} outside [0.1, 2.0]; clamped to ${weight}`
      : null,
  };
}

/**
 * R1–R5: entries sorted by skill_name (then context_hash, entry_id), decay applied at `now`, weights clamped
 * with a warning, defaults for anything missing. Any corrupted row resets the whole snapshot to defaults.
 * Same rows + same `now` → the same snapshot.
 */
export function buildSnapshot(
  teamId: string,
  entryRows: unknown[],
  retryRows: unknown[],
  now: number,
): PolicyMemorySnapshot {
  const entries = parseAll(entryRows, parseEntry);
  if (!entries.ok) return emptySnapshot(teamId, now, { code: STRAT_RESET_CODE, reason: `entry ${entries.reason}` });
  const retries = parseAll(retryRows, parseRetry);
  if (!retries.ok) return emptySnapshot(teamId, now, { code: STRAT_RESET_CODE, reason: `retry ${retries.reason}` });
  const shown = entries.value
    .sort(
      (a, b) =>
        byText(a.skill_name, b.skill_name) || byText(a.context_hash, b.context_hash) || byText(a.entry_id, b.entry_id),
    )
    .map((e) => entryView(e, now));
  const views = shown.map((v) => v.view);
  const lastUpdated = Math.max(...entries.value.map((e) => e.last_used), ...retries.value.map((r) => r.updated_at));
  return {
    version: SNAPSHOT_VERSION,
    team_id: teamId,
    taken_at: iso(now),
    last_updated: Number.isFinite(lastUpdated) ? iso(lastUpdated) : null,
    entries: views,
    // skill → effective weight in the default context (events without a query type)
    routing_weights: Object.fromEntries(
      views.filter((v) => v.context_hash === DEFAULT_CONTEXT_HASH).map((v) => [v.skill_name, v.effective_weight]),
    ),
    retry_adjustments: Object.fromEntries(
      retries.value
        .sort((a, b) => byText(a.failure_class, b.failure_class))
        .map((r): [string, RetryAdjustmentView] => [
          r.failure_class,
          { backoff_multiplier: r.backoff_multiplier, max_attempts_override: r.max_attempts_override },
        ]),
    ),
    reset: null,
    warnings: shown.flatMap((v) => (v.warning ? [v.warning] : [])),
  };
}

export type RankedSkill = { skill: string; weight: number; source: "learned" | "cold_start"; archived: boolean };

/** Skills by effective weight (highest first), ties by name; unknown skills at the cold-start 1.0 (R4). */
export function rankSkills(snapshot: PolicyMemorySnapshot, skills: string[], contextHash: string): RankedSkill[] {
  const known = new Map<string, SnapshotEntry>();
  for (const e of snapshot.entries) if (e.context_hash === contextHash) known.set(e.skill_name, e);
  return [...new Set(skills)]
    .map((skill): RankedSkill => {
      const e = known.get(skill);
      return e
        ? { skill, weight: e.effective_weight, source: "learned", archived: e.archived }
        : { skill, weight: COLD_START_WEIGHT, source: "cold_start", archived: false };
    })
    .sort((a, b) => b.weight - a.weight || byText(a.skill, b.skill));
}

// ---- retry adjustments -----------------------------------------------------------------------

export const MIN_RETRY_SAMPLES = 3;
export const BACKOFF_BOUNDS = [1, 3] as const;
export const MAX_ATTEMPTS_BOUNDS = [2, 6] as const;

/** One run's retry evidence for one failure class (the class a task failed with first). */
export type RetryObservation = { failureClass: string; recovered: number; exhausted: number; recoveryAttempts: number };

const StoredRetry = z.object({
  team_id: z.string().min(1),
  failure_class: z.string().min(1),
  recovered_count: count,
  exhausted_count: count,
  recovery_attempts_sum: count,
  backoff_multiplier: finite.pipe(z.number().min(0.1).max(10)),
  max_attempts_override: z.number().int().min(1).max(20).nullable(),
  ledger_seq: count,
  updated_at: count,
});

export const parseRetry = (row: unknown): ParsedRow<RetryState> => parseStored(StoredRetry, row);

const clamp = (x: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, x));

/**
 * From the class's evidence: below 3 samples nothing changes (multiplier 1, no override). When retries rarely
 * help (recovery rate < 0.2) the class gets 2 attempts and a doubled back-off; otherwise one attempt more than
 * the mean attempts-to-recovery (2…6) and a back-off growing 0.5 per attempt past the second (1…3).
 */
export function deriveRetryAdjustment(recovered: number, exhausted: number, attemptsSum: number): RetryAdjustmentView {
  const samples = recovered + exhausted;
  if (samples < MIN_RETRY_SAMPLES) return { backoff_multiplier: 1, max_attempts_override: null };
  if (recovered === 0 || recovered / samples < 0.2) return { backoff_multiplier: 2, max_attempts_override: 2 };
  const meanAttempts = attemptsSum / recovered;
  return {
    backoff_multiplier: Math.round(clamp(1 + 0.5 * (meanAttempts - 2), BACKOFF_BOUNDS) * 100) / 100,
    max_attempts_override: clamp(Math.ceil(meanAttempts) + 1, MAX_ATTEMPTS_BOUNDS),
  };
}

export function applyRetryObservation(
  before: RetryState | null,
  obs: RetryObservation,
  teamId: string,
  at: number,
): RetryState {
  const base: RetryState = before ?? {
    team_id: teamId,
    failure_class: obs.failureClass,
    recovered_count: 0,
    exhausted_count: 0,
    recovery_attempts_sum: 0,
    backoff_multiplier: 1,
    max_attempts_override: null,
    ledger_seq: 0,
    updated_at: at,
  };
  const recovered_count = base.recovered_count + Math.max(0, obs.recovered);
  const exhausted_count = base.exhausted_count + Math.max(0, obs.exhausted);
  const recovery_attempts_sum = base.recovery_attempts_sum + Math.max(0, obs.recoveryAttempts);
  return {
    ...base,
    recovered_count,
    exhausted_count,
    recovery_attempts_sum,
    ...deriveRetryAdjustment(recovered_count, exhausted_count, recovery_attempts_sum),
    ledger_seq: base.ledger_seq + 1,
    updated_at: Math.max(base.updated_at, at),
  };
}
