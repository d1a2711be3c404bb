// The start-of-run policy-memory snapshot: the team's learned retry adjustments, read once, sanitized, fixed for the run.

export type RetryAdjustment = { backoff_multiplier: number; max_attempts_override: number | null };

export type PolicySnapshot = {
  version: "1.0.0";
  taken_at: number;
  retry_adjustments: Record<string, RetryAdjustment>;
  /** "DTL-STRAT-001: …" (the warning code for "policy memory ignored, defaults apply") per adjustment out of bounds */
  warnings: string[];
  /** the rest of the team's policy memory at start (seed 004): entries and routing weights (absent on older runs) */
  policy_memory?: PolicyMemoryView;
};

export type { RetryAdjustmentRow } from "./store/run-record-port";

import type { PolicyMemoryView } from "../learning/domain";

import type { RetryAdjustmentRow } from "./store/run-record-port";

export const BACKOFF_MULTIPLIER_BOUNDS = [0.1, 10] as const;
export const MAX_ATTEMPTS_OVERRIDE_BOUNDS = [1, 20] as const;

/** Rows sorted by class (the same rows always give the same snapshot); out-of-bounds values reset to defaults with a
 * DTL-STRAT-001 warning. */
export function buildSnapshot(rows: RetryAdjustmentRow[], takenAt: number): PolicySnapshot {
  const retry_adjustments: Record<string, RetryAdjustment> = {};
  const warnings: string[] = [];
  const sorted = [...rows].sort((a, b) =>
    a.failureClass < b.failureClass ? -1 : a.failureClass > b.failureClass ? 1 : 0,
  );
  for (const row of sorted) {
    let multiplier = row.backoffMultiplier;
    if (
      !Number.isFinite(multiplier) ||
      multiplier < BACKOFF_MULTIPLIER_BOUNDS[0] ||
      multiplier > BACKOFF_MULTIPLIER_BOUNDS[1]
    ) {
      warnings.push(
        `DTL-STRAT-001: ${row.failureClass}.backoff_multiplier ${row.backoffMultiplier} out of bounds; using 1`,
      );
      multiplier = 1;
    }
    let override = row.maxAttemptsOverride;
    if (
      override !== null &&
      (!Number.isInteger(override) ||
        override < MAX_ATTEMPTS_OVERRIDE_BOUNDS[0] ||
        override > MAX_ATTEMPTS_OVERRIDE_BOUNDS[1])
    ) {
      warnings.push(
        `DTL-STRAT-001: ${row.failureClass}.max_attempts_override ${row.maxAttemptsOverride} out of bounds; ignored`,
      );
      override = null;
    }
    retry_adjustments[row.failureClass] = { backoff_multiplier: multiplier, max_attempts_override: override };
  }
  return { version: "1.0.0", taken_at: takenAt, retry_adjustments, warnings };
}

export const emptySnapshot = (takenAt: number): PolicySnapshot => buildSnapshot([], takenAt);

/**
 * The run's full start snapshot: the sanitized retry adjustments plus the policy memory's entries and weights. The
 * memory's own warnings stay with it: the top-level ones are about the adjustments this run applies.
 */
export const withPolicyMemory = (snapshot: PolicySnapshot, memory: PolicyMemoryView): PolicySnapshot => ({
  ...snapshot,
  policy_memory: memory,
});

/** A run's snapshot older than this is stale (seed 004 "stale snapshot: timestamp check"): decisions still use it. */
export const SNAPSHOT_STALE_AFTER_MS = 24 * 3_600_000;

/**
 * Why a run's snapshot no longer reflects the team's policy memory, or null: taken more than SNAPSHOT_STALE_AFTER_MS
 * ago, or behind (policy memory changed after it was taken). R1 keeps the snapshot for the run either way.
 */
export function staleness(snapshot: PolicySnapshot, now: number, lastUpdated: string | null): string | null {
  const age = now - snapshot.taken_at;
  if (age > SNAPSHOT_STALE_AFTER_MS)
    return `stale_snapshot: the run's policy-memory snapshot is ${Math.floor(age / 3_600_000)} h old (limit ${
      SNAPSHOT_STALE_AFTER_MS / 3_600_000
    } h); decided with it anyway (R1), a new run reads a fresh one`;
  const changed = lastUpdated === null ? Number.NaN : Date.parse(lastUpdated);
  if (changed > snapshot.taken_at)
    return `stale_snapshot: policy memory changed at ${lastUpdated}, after the run's snapshot (${new Date(
      snapshot.taken_at,
    ).toISOString()}); decided with the snapshot (R1), a new run reads a fresh one`;
  return null;
}
