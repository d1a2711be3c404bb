// The learning reconciliation: finished runs whose run.completed never reached learning get it re-sent by their object.
import type { RunGateway } from "../../ports/run-gateway";
import type { RunOperations } from "../runs";
import { DAY_MS } from "./memory-tiers";
import type { SweepStore } from "./store/sweep-store-port";

/** a completion younger than this may still be on its way through the queue */
export const RECONCILE_GRACE_MS = 2 * 60_000;
/** how far back the sweep looks; older losses are not recovered (docs/security.md, residual risk) */
export const RECONCILE_WINDOW_MS = 7 * DAY_MS;
/** runs re-sent per tick at most: one object call each */
export const RECONCILE_PER_TICK = 100;
/** who the objects see as the caller */
export const RECONCILE_SUBJECT = "system:learning-reconcile";

export type ReconcileNeeds = {
  sweepStore: Pick<SweepStore, "unlearnedRuns">;
  runs: RunGateway<Pick<RunOperations, "resend_completion">>;
};

export type ReconcileReport = {
  /** finished runs found without their learning */
  unlearned: number;
  /** run.completed events sent again */
  resent: number;
  /** runs whose completion was still in their object's outbox (the outbox sends it) or never recorded */
  skipped: number;
  errors: string[];
};

/** One tick: finds at most RECONCILE_PER_TICK unlearned runs finished within the window and asks each object to re-send. */
export async function reconcileLearning(deps: ReconcileNeeds, now: number): Promise<ReconcileReport> {
  const report: ReconcileReport = { unlearned: 0, resent: 0, skipped: 0, errors: [] };
  const runs = await deps.sweepStore.unlearnedRuns(
    now - RECONCILE_WINDOW_MS,
    now - RECONCILE_GRACE_MS,
    RECONCILE_PER_TICK,
  );
  report.unlearned = runs.length;
  for (const { runId, teamId } of runs) {
    try {
      const r = await deps.runs
        .get(runId)
        .resend_completion(runId, { actor: { team_id: teamId, subject: RECONCILE_SUBJECT } });
      if (r.ok && r.value.resent) report.resent++;
      else if (r.ok) report.skipped++;
      else report.errors.push(`${runId}: ${r.error.message}`);
    } catch (e) {
      report.errors.push(`${runId}: ${String(e)}`);
    }
  }
  return report;
}
