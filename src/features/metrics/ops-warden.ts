// ops-warden evaluation metrics, pure: routing_repeat_accuracy, cross_runtime_continuity, llm_calls_avoided.
import type { SessionRow } from "../../ports/metrics-store";

export type { SessionRow };

export type OpsWardenMetrics = {
  /** episodes in the window whose need had been resolved before (by any runtime) */
  repeats: number;
  llm_calls_avoided_count: number;
  routing_repeat_accuracy: number | null;
  cross_runtime_repeats: number;
  cross_runtime_continuity: number | null;
};

/**
 * A repeat is an episode whose need_fingerprint already had a resolved episode. It is verified when it is resolved
 * on the same route as the need's latest resolution (the stabilized route): memory covered the need, so no LLM call
 * was needed. routing_repeat_accuracy = verified / repeats; llm_calls_avoided_count = verified;
 * cross_runtime_continuity = the same ratio over repeats whose session_kind differs from the earlier resolution's.
 * `rows` must be oldest first; rows before `since` only establish history.
 */
export function opsWardenMetrics(rows: SessionRow[], since: number): OpsWardenMetrics {
  const resolved = new Map<string, { route: string; kind: string }>();
  let repeats = 0;
  let verified = 0;
  let cross = 0;
  let crossVerified = 0;
  for (const r of rows) {
    const prior = resolved.get(r.need_fingerprint);
    if (prior && r.created_at >= since) {
      repeats += 1;
      const ok = r.outcome === "resolved" && r.route_id === prior.route;
      if (ok) verified += 1;
      if (r.session_kind !== prior.kind) {
        cross += 1;
        if (ok) crossVerified += 1;
      }
    }
    if (r.outcome === "resolved") resolved.set(r.need_fingerprint, { route: r.route_id, kind: r.session_kind });
  }
  return {
    repeats,
    llm_calls_avoided_count: verified,
    routing_repeat_accuracy: repeats === 0 ? null : verified / repeats,
    cross_runtime_repeats: cross,
    cross_runtime_continuity: cross === 0 ? null : crossVerified / cross,
  };
}

/** Nearest-rank percentile of an ascending list; null when empty. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
