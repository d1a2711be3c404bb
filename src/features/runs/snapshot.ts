// The start-of-run policy-memory snapshot: the team's learned retry adjustments, read once, sanitized, fixed for the run.

export type RetryAdjustment = { backoff_multiplier: number; max_attempts_override: number | null };

export type PolicySnapshot = {
  version: "1.0.0";
  taken_at: number;
  retry_adjustments: Record<string, RetryAdjustment>;
  /** "DTL-STRAT-001: …" (the warning code for "policy memory ignored, defaults apply") per adjustment out of bounds */
  warnings: string[];
};

export type { RetryAdjustmentRow } from "../../ports/run-record";

import type { RetryAdjustmentRow } from "../../ports/run-record";

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
