// scheduled(): which sweep a cron runs, each under a lease so overlapping invocations do the work once.
import { log } from "../../lib/log";
import type { DecisionCounterStore } from "../../ports/decision-log";
import type { MemoryIndexSync, MemoryMaintenance } from "../../ports/memory-maintenance";
import type { SweepStore } from "../../ports/sweep-store";
import { type ArtifactRetentionNeeds, type ArtifactSweepReport, sweepArtifacts } from "../artifacts";
import type { GateSlaNeeds } from "../gates";
import { archiveCutoff } from "../learning";
import { alertGateSlaBreaches, type SlackFeedNeeds } from "../slack";
import { type ReconcileNeeds, type ReconcileReport, reconcileLearning } from "./learning-reconcile";
import { DAY_MS, TIER_RULES } from "./memory-tiers";
import { evaluateRollbackMatrix, type RollbackDeps, type TeamRollback } from "./rollback-matrix";

export const ROLLBACK_CRON = "*/5 * * * *";
export const DAILY_CRON = "17 3 * * *";
export const APPROVAL_RETENTION_MS = 365 * DAY_MS;
export const STAGED_TASK_TTL_MS = 30 * DAY_MS;
/** the decision log's manifest guards against redelivery only: EVENTS keeps a message 4 days (Queues' default), +1 */
export const DECISION_MANIFEST_TTL_MS = 5 * DAY_MS;
const LEASE_TTL_MS = { rollback: 4 * 60_000, reconcile: 4 * 60_000, gate_sla: 4 * 60_000, daily: 15 * 60_000 } as const;

export type SweepDeps = Omit<RollbackDeps, "decisionCounters"> &
  ReconcileNeeds &
  GateSlaNeeds &
  SlackFeedNeeds &
  ArtifactRetentionNeeds & {
    decisionCounters: Pick<DecisionCounterStore, "teamsSince" | "pruneManifest">;
    sweepStore: SweepStore;
    memoryMaintenance: MemoryMaintenance;
    memoryIndexSync: MemoryIndexSync;
  };

export type DailyReport = {
  approval_events_deleted: number;
  policy_memory_archived: number;
  staged_tasks_pruned: number;
  /** decision_log_batch rows past DECISION_MANIFEST_TTL_MS */
  decision_manifest_pruned: number;
  memory: { decayed: number; to_warm: number; to_cold: number; deleted: number; expired: number; unindexed: number };
  /** artifacts past their kind's retention (row and object) and objects left without a row */
  artifacts: ArtifactSweepReport;
  errors: string[];
};

export type SweepOutcome =
  | { sweep: "rollback" | "reconcile" | "gate_sla" | "daily"; ran: false; reason: "lease_held" }
  | { sweep: "gate_sla"; ran: true; alerted: number; error?: string }
  | { sweep: "rollback"; ran: true; teams: TeamRollback[] }
  | { sweep: "reconcile"; ran: true; report: ReconcileReport }
  | { sweep: "daily"; ran: true; report: DailyReport };

/** Runs `work` only when this invocation wins the lease for (name, slot); releases it after. */
export async function withLease<T>(
  store: SweepStore,
  name: string,
  slot: string,
  holder: string,
  now: number,
  ttlMs: number,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  if (!(await store.acquireLease(name, slot, `${slot}|${holder}`, now, ttlMs))) return { ran: false };
  try {
    return { ran: true, value: await work() };
  } finally {
    await store.releaseLease(name, `${slot}|${holder}`, now);
  }
}

/** Retention, archiving and memory lifecycle; each step runs even when an earlier one failed. */
export async function runDailySweep(deps: SweepDeps, now: number): Promise<DailyReport> {
  const report: DailyReport = {
    approval_events_deleted: 0,
    policy_memory_archived: 0,
    staged_tasks_pruned: 0,
    decision_manifest_pruned: 0,
    memory: { decayed: 0, to_warm: 0, to_cold: 0, deleted: 0, expired: 0, unindexed: 0 },
    artifacts: { expired: 0, orphans: 0 },
    errors: [],
  };
  const step = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      report.errors.push(`${name}: ${String(e)}`);
      log.error(`daily sweep: ${name} failed`, { error: String(e) });
    }
  };
  await step("approval retention", async () => {
    report.approval_events_deleted = await deps.sweepStore.deleteApprovalEventsBefore(now - APPROVAL_RETENTION_MS);
  });
  await step("policy memory archive", async () => {
    const archived = await deps.sweepStore.archivePolicyMemory(archiveCutoff(now), now, () => deps.newId("aud"));
    report.policy_memory_archived = archived.reduce((n, t) => n + t.entryIds.length, 0);
  });
  await step("staged task outcomes", async () => {
    report.staged_tasks_pruned = await deps.sweepStore.pruneStagedTasks(now - STAGED_TASK_TTL_MS);
  });
  await step("decision log manifest", async () => {
    report.decision_manifest_pruned = await deps.decisionCounters.pruneManifest(now - DECISION_MANIFEST_TTL_MS);
  });
  const unindex = async (left: { teamId: string; ids: string[] }[]) => {
    for (const { teamId, ids } of left) {
      await deps.memoryIndexSync.remove(teamId, ids);
      report.memory.unindexed += ids.length;
    }
  };
  await step("memory decay and tiers", async () => {
    const tiers = await deps.memoryMaintenance.decayAndTier(now, TIER_RULES);
    report.memory.decayed = tiers.decayed;
    report.memory.to_warm = tiers.toWarm;
    report.memory.to_cold = tiers.toCold;
    report.memory.deleted = tiers.deleted;
    await unindex(tiers.leftIndex);
  });
  await step("task namespace TTL", async () => {
    const expired = await deps.memoryMaintenance.expireTaskNamespaces(now, TIER_RULES);
    report.memory.expired = expired.deleted;
    await unindex(expired.leftIndex);
  });
  await step("artifact retention", async () => {
    report.artifacts = await sweepArtifacts(deps, now);
  });
  log.info("daily sweep", { ...report });
  return report;
}

/**
 * Entry for scheduled(): the 5-minute cron evaluates the rollback matrix, re-sends lost run completions (the learning
 * reconciliation) and alerts gate SLA breaches; the daily cron does the rest.
 */
export async function runScheduled(
  cron: string,
  scheduledTime: number,
  deps: SweepDeps,
  now: number,
  holder: string,
): Promise<SweepOutcome[]> {
  const slot = String(scheduledTime);
  const out: SweepOutcome[] = [];
  const wantRollback = cron !== DAILY_CRON;
  const wantDaily = cron !== ROLLBACK_CRON;
  if (wantRollback) {
    const r = await withLease(deps.sweepStore, "rollback", slot, holder, now, LEASE_TTL_MS.rollback, () =>
      evaluateRollbackMatrix(deps, now),
    );
    out.push(
      r.ran
        ? { sweep: "rollback", ran: true, teams: r.value }
        : { sweep: "rollback", ran: false, reason: "lease_held" },
    );
    const c = await withLease(deps.sweepStore, "reconcile", slot, holder, now, LEASE_TTL_MS.reconcile, async () => {
      const report = await reconcileLearning(deps, now);
      if (report.unlearned > 0 || report.errors.length > 0)
        log[report.errors.length ? "warn" : "info"]("learning reconcile", { ...report });
      return report;
    });
    out.push(
      c.ran
        ? { sweep: "reconcile", ran: true, report: c.value }
        : { sweep: "reconcile", ran: false, reason: "lease_held" },
    );
    // gate SLA breaches: one alert per gate and breach (the 5-minute cron is the alert's resolution)
    const s = await withLease(deps.sweepStore, "gate_sla", slot, holder, now, LEASE_TTL_MS.gate_sla, () =>
      alertGateSlaBreaches(deps, now).then(
        (alerted) => ({ alerted }),
        (e: unknown) => {
          log.error("gate SLA sweep failed", { error: String(e) });
          return { alerted: 0, error: String(e) };
        },
      ),
    );
    out.push(
      s.ran ? { sweep: "gate_sla", ran: true, ...s.value } : { sweep: "gate_sla", ran: false, reason: "lease_held" },
    );
  }
  if (wantDaily) {
    const r = await withLease(deps.sweepStore, "daily", slot, holder, now, LEASE_TTL_MS.daily, () =>
      runDailySweep(deps, now),
    );
    out.push(
      r.ran ? { sweep: "daily", ran: true, report: r.value } : { sweep: "daily", ran: false, reason: "lease_held" },
    );
  }
  return out;
}
