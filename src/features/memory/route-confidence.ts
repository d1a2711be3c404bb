// Route confidence (pure): a Wilson lower bound on a route's resolve rate, its prior taken from the team's history.
import type { RouteOutcomeTotals } from "./store/route-ledger-port";

export type { RouteOutcomeTotals };

/** one-sided z of the lower bound (≈ 84 % confidence) */
export const CONFIDENCE_Z = 1;
/** how many episodes the team's prior is worth in every route's estimate */
export const PRIOR_WEIGHT = 2;
/**
 * A route is served when its lower bound clears this. As the prior tends to certainty, the bound for one resolution
 * and no failure tends to 0.75 from below, so one resolution never suffices; two do once the team's routes resolve
 * ≥ 97 % of the time, three with the default prior (0.9), and a route-caused failure in the window asks for about
 * seven (docs/learning.md, "Stabilization").
 */
export const SERVE_THRESHOLD = 0.76;
/** the belief a team without history starts from: 9 resolutions in 10, worth 10 episodes of its own history */
export const DEFAULT_PRIOR: RouteOutcomeTotals = { resolved: 9, failed: 1 };
/** how far back the team's history reaches for the prior */
export const PRIOR_HISTORY_MS = 30 * 86_400_000;

/** Wilson score lower bound of `successes` out of `n` (fractional counts allowed); 0 when n is 0. */
export function wilsonLowerBound(successes: number, n: number, z = CONFIDENCE_Z): number {
  if (n <= 0) return 0;
  const p = Math.min(1, Math.max(0, successes / n));
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.max(0, (centre - spread) / (1 + z2 / n));
}

/** The prior pseudo-counts: PRIOR_WEIGHT episodes at the team's resolve rate (its history plus DEFAULT_PRIOR). */
export function teamPrior(totals: RouteOutcomeTotals): { resolved: number; failed: number } {
  const resolved = totals.resolved + DEFAULT_PRIOR.resolved;
  const rate = resolved / (resolved + totals.failed + DEFAULT_PRIOR.failed);
  return { resolved: PRIOR_WEIGHT * rate, failed: PRIOR_WEIGHT * (1 - rate) };
}

/** The lower bound on a route's resolve rate from its own evidence plus the team prior. */
export function routeConfidence(evidence: { resolved: number; failed: number }, prior: RouteOutcomeTotals): number {
  const s = evidence.resolved + prior.resolved;
  return wilsonLowerBound(s, s + evidence.failed + prior.failed);
}

/**
 * The team totals the prior is made of, counted like the D1 adapter counts them: every resolved episode, and every
 * escalated one not caused by the environment (a cause left out counts: it may have been the route).
 */
export function routeOutcomeTotals(events: { outcome: string; failureCause?: string | null }[]): RouteOutcomeTotals {
  let resolved = 0;
  let failed = 0;
  for (const e of events) {
    if (e.outcome === "resolved") resolved += 1;
    else if (e.outcome === "escalated" && e.failureCause !== "environment") failed += 1;
  }
  return { resolved, failed };
}
