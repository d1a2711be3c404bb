// Pure planning of one run's learning: W2 ledger-first writes with guards, W4 bounds, desync and corruption handling.

import { entryKey, retryEntryId } from "./domain";
import {
  applyOutcome,
  applyRetryObservation,
  type EntryState,
  type ParsedRow,
  parseEntry,
  parseRetry,
  type RetryObservation,
  type RetryState,
  type SkillOutcome,
  STRAT_RESET_CODE,
} from "./policy-memory";
import type { EntryWrite, LearningState, LedgerWrite, RetryWrite, StoredWithLedger } from "./store/learning-store-port";

export type RunLearningInput = {
  teamId: string;
  runId: string;
  eventId: string;
  /** when the run completed: the entries' last_used */
  at: number;
  now: number;
  skills: SkillOutcome[];
  retries: RetryObservation[];
  state: LearningState;
  newId: (prefix: string) => string;
};

export type RunLearningPlan =
  | { kind: "abort"; reason: string; ledgerKey: string; entryId: string }
  | {
      kind: "apply";
      writes: (EntryWrite | RetryWrite)[];
      skipped: { ledgerKey: string; reason: "already_learned_for_run" | "learning_stopped" }[];
      /** clamped weights, corrupted rows reset (DTL-STRAT-001), entries that stopped learning */
      warnings: string[];
    };

export { entryKey };
export const retryLedgerKey = (failureClass: string) => `retry:${failureClass}`;

const entrySummary = (e: EntryState) => ({
  success_count: e.success_count,
  failure_count: e.failure_count,
  base_weight: e.base_weight,
  ledger_seq: e.ledger_seq,
  learning_stopped: e.learning_stopped,
});
const retrySummary = (r: RetryState) => ({
  recovered_count: r.recovered_count,
  exhausted_count: r.exhausted_count,
  recovery_attempts_sum: r.recovery_attempts_sum,
  backoff_multiplier: r.backoff_multiplier,
  max_attempts_override: r.max_attempts_override,
  ledger_seq: r.ledger_seq,
});

/** The ledger's newest row must describe the stored state exactly; otherwise the state changed outside the ledger. */
export function ledgerMatches(stored: StoredWithLedger, summary: Record<string, unknown>): boolean {
  const head = stored.head;
  if (!head?.after || head.seq !== summary.ledger_seq) return false;
  return Object.entries(summary).every(([k, v]) => head.after?.[k] === v);
}

const previous = (row: Record<string, unknown>) => JSON.stringify(row).slice(0, 1000);

type Reset = { reason: string; previous: string };
type Prior<T> = { before: T | null; expect: LedgerWrite["expect"]; reset: Reset | null };

/**
 * What a planned write starts from: nothing (a new row), the parsed row at its ledger_seq, or — for a row that no
 * longer parses — a reset to defaults (DTL-STRAT-001). "desync" when the ledger does not describe the stored row.
 */
function readPrior<T extends { ledger_seq: number }>(
  stored: StoredWithLedger | undefined,
  parse: (row: unknown) => ParsedRow<T>,
  summary: (value: T) => Record<string, unknown>,
  what: string,
  warnings: string[],
): Prior<T> | "desync" {
  if (!stored) return { before: null, expect: { kind: "none" }, reset: null };
  const parsed = parse(stored.row);
  if (!parsed.ok) {
    warnings.push(`${STRAT_RESET_CODE}: ${what} corrupted (${parsed.reason}); reset to defaults`);
    return {
      before: null,
      expect: { kind: "exists" },
      reset: { reason: parsed.reason, previous: previous(stored.row) },
    };
  }
  if (!ledgerMatches(stored, summary(parsed.value))) return "desync";
  return { before: parsed.value, expect: { kind: "seq", seq: parsed.value.ledger_seq }, reset: null };
}

type Skipped = { ledgerKey: string; reason: "already_learned_for_run" | "learning_stopped" };
type Abort = Extract<RunLearningPlan, { kind: "abort" }>;
/** What one skill or failure class of the run comes to: a write (with its warnings), a skip, or the run's abort. */
export type LearningStep<W> =
  | { kind: "write"; write: W; warnings: string[] }
  | { kind: "skip"; skipped: Skipped }
  | Abort;

/** The fields every ledger write carries (a fresh ledger id per write). */
function ledgerFields(
  input: RunLearningInput,
  entryId: string,
  ledgerKey: string,
  seq: number,
  expect: LedgerWrite["expect"],
) {
  return {
    ledgerId: input.newId("pml"),
    teamId: input.teamId,
    runId: input.runId,
    entryId,
    ledgerKey,
    seq,
    createdAt: input.now,
    expect,
  };
}

/** `change` starts with its kind and the event that caused it. */
export const changeHeader = (eventId: string, prior: { before: unknown; reset: Reset | null }) => ({
  kind: prior.reset ? ("reset" as const) : prior.before ? ("update" as const) : ("create" as const),
  event_id: eventId,
});

/** A reset's change ends with what it replaced and why. */
const resetFields = (reset: Reset | null) =>
  reset ? { code: STRAT_RESET_CODE, reset_reason: reset.reason, previous: reset.previous } : {};

/** A row reset to defaults continues one past the ledger's newest seq (its own stored seq is not trusted). */
export const seqAfterReset = (stored: StoredWithLedger | undefined) => Math.max(0, stored?.head?.seq ?? 0) + 1;

/** One skill's outcome in this run → its entry write (W4: at most once per run; a stopped entry is skipped). */
export function planSkill(input: RunLearningInput, outcome: SkillOutcome): LearningStep<EntryWrite> {
  const ledgerKey = outcome.skill;
  if (input.state.learned.has(ledgerKey))
    return { kind: "skip", skipped: { ledgerKey, reason: "already_learned_for_run" } };
  const stored = input.state.entries.get(entryKey(outcome.skill, outcome.contextHash));
  const entryId = stored ? String(stored.row.entry_id) : input.newId("pme");
  const warnings: string[] = [];
  const prior = readPrior(stored, parseEntry, entrySummary, `${outcome.skill} entry`, warnings);
  if (prior === "desync") return { kind: "abort", reason: "ledger_desync", ledgerKey, entryId };
  const { before, expect, reset } = prior;
  const update = applyOutcome(before, outcome, { entryId, teamId: input.teamId }, input.at);
  if (update.kind === "skip") return { kind: "skip", skipped: { ledgerKey, reason: "learning_stopped" } };
  const after: EntryState = reset
    ? { ...update.after, entry_id: entryId, created_at: input.at, ledger_seq: seqAfterReset(stored) }
    : update.after;
  for (const w of update.warnings) warnings.push(`${outcome.skill}: ${w}`);
  if (update.stoppedNow) warnings.push(`${outcome.skill}: 3 identical failing outcomes in a row; learning stopped`);
  const write: EntryWrite = {
    target: "entry",
    ...ledgerFields(input, entryId, ledgerKey, after.ledger_seq, expect),
    change: {
      ...changeHeader(input.eventId, prior),
      outcome: {
        success: outcome.success,
        failure_class: outcome.failureClass,
        cost_units: outcome.costUnits,
        steps: outcome.steps,
      },
      before: before ? entrySummary(before) : null,
      after: entrySummary(after),
      ...(update.warnings.length ? { warnings: update.warnings } : {}),
      ...(update.stoppedNow ? { learning_stopped: "circular_learning" } : {}),
      ...resetFields(reset),
    },
    state: after,
  };
  return { kind: "write", write, warnings };
}

/** One failure class's retry observation in this run → its retry adjustment write (W4: at most once per run). */
export function planRetry(input: RunLearningInput, obs: RetryObservation): LearningStep<RetryWrite> {
  const ledgerKey = retryLedgerKey(obs.failureClass);
  if (input.state.learned.has(ledgerKey))
    return { kind: "skip", skipped: { ledgerKey, reason: "already_learned_for_run" } };
  const entryId = retryEntryId(input.teamId, obs.failureClass);
  const stored = input.state.retries.get(obs.failureClass);
  const warnings: string[] = [];
  const prior = readPrior(stored, parseRetry, retrySummary, `retry ${obs.failureClass}`, warnings);
  if (prior === "desync") return { kind: "abort", reason: "ledger_desync", ledgerKey, entryId };
  const { before, expect, reset } = prior;
  const next = applyRetryObservation(before, obs, input.teamId, input.at);
  const after = reset ? { ...next, ledger_seq: seqAfterReset(stored) } : next;
  const write: RetryWrite = {
    target: "retry",
    ...ledgerFields(input, entryId, ledgerKey, after.ledger_seq, expect),
    change: {
      ...changeHeader(input.eventId, prior),
      observation: obs,
      before: before ? retrySummary(before) : null,
      after: retrySummary(after),
      ...resetFields(reset),
    },
    state: after,
  };
  return { kind: "write", write, warnings };
}

/**
 * Plans every write of one run.completed: its skills, then its retry observations. Any ledger/state mismatch aborts
 * learning for the whole run (nothing is written but the idempotency key and an audit row). A corrupted row is reset
 * to defaults (DTL-STRAT-001) before this run's outcome is applied to it. A skill this run already changed, or a
 * stopped entry, is skipped.
 */
export function planRunLearning(input: RunLearningInput): RunLearningPlan {
  const steps: (() => LearningStep<EntryWrite | RetryWrite>)[] = [
    ...input.skills.map((outcome) => () => planSkill(input, outcome)),
    ...input.retries.map((obs) => () => planRetry(input, obs)),
  ];
  const plan = {
    kind: "apply" as const,
    writes: [] as (EntryWrite | RetryWrite)[],
    skipped: [] as Skipped[],
    warnings: [] as string[],
  };
  for (const next of steps) {
    const step = next();
    if (step.kind === "abort") return step;
    if (step.kind === "skip") plan.skipped.push(step.skipped);
    else {
      plan.writes.push(step.write);
      plan.warnings.push(...step.warnings);
    }
  }
  return plan;
}

export type BreakerResetPlan =
  | { ok: true; write: EntryWrite }
  | { ok: false; reason: "not_stopped" | "ledger_desync" | "corrupted" };

/**
 * An admin's restart of learning for an entry the circular-learning breaker stopped: learning_stopped off and the
 * recent outcome signatures cleared, through the ledger like any change (W2); the counters stay (W3). Refused for an
 * entry that still learns, whose row no longer parses, or whose ledger does not describe it.
 */
export function planBreakerReset(
  stored: StoredWithLedger,
  input: { teamId: string; runId: string; eventId: string; ledgerId: string; actor: string; now: number },
): BreakerResetPlan {
  const prior = readPrior(stored, parseEntry, entrySummary, "entry", []);
  if (prior === "desync") return { ok: false, reason: "ledger_desync" };
  const before = prior.before;
  if (!before) return { ok: false, reason: "corrupted" };
  if (!before.learning_stopped) return { ok: false, reason: "not_stopped" };
  const after: EntryState = {
    ...before,
    learning_stopped: false,
    recent_outcomes: [],
    ledger_seq: before.ledger_seq + 1,
  };
  return {
    ok: true,
    write: {
      target: "entry",
      ledgerId: input.ledgerId,
      teamId: input.teamId,
      runId: input.runId,
      entryId: before.entry_id,
      ledgerKey: before.skill_name,
      seq: after.ledger_seq,
      createdAt: input.now,
      expect: prior.expect,
      change: {
        kind: "breaker_reset",
        event_id: input.eventId,
        by: input.actor,
        recent_outcomes: before.recent_outcomes,
        before: entrySummary(before),
        after: entrySummary(after),
      },
      state: after,
    },
  };
}
