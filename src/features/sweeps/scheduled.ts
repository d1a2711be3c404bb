// scheduled(): which sweep a cron runs, each under a lease so overlapping invocations do the work once.
import { log } from "../../lib/log";
import type { DecisionCounterStore } from "../../ports/decision-log";
import type { MemoryIndexSync, TeamMemoryMaintenance } from "../../ports/memory-maintenance";
import { type ArtifactRetentionNeeds, type ArtifactSweepReport, sweepArtifacts } from "../artifacts";
import type { GateSlaNeeds } from "../gates";
import { archiveCutoff } from "../learning";
import { alertGateSlaBreaches, type SlackFeedNeeds } from "../slack";
import { type ReconcileNeeds, type ReconcileReport, reconcileLearning } from "./learning-reconcile";
import { DAY_MS, TIER_RULES } from "./memory-tiers";
import { evaluateRollbackMatrix, type RollbackDeps, type TeamRollback } from "./rollback-matrix";
import type { SweepStore } from "./store/sweep-store-port";

export const ROLLBACK_CRON = "*/5 * * * *";
export const DAILY_CRON = "17 3 * * *";
export const APPROVAL_RETENTION_MS = 365 * DAY_MS;
export const STAGED_TASK_TTL_MS = 30 * DAY_MS;
/** the decision log's manifest guards against redelivery only: EVENTS keeps a message 4 days (Queues' default), +1 */
export const DECISION_MANIFEST_TTL_MS = 5 * DAY_MS;
/** a team is due for the memory sweep when its last one is older than this (a daily cron, with slack for its drift) */
export const MEMORY_SWEEP_DUE_MS = 20 * 60 * 60_000;
/** teams swept per daily tick at most; the rest, least recently swept first, are the next tick's (the cursor) */
export const MEMORY_TEAMS_PER_TICK = 500;
const MEMORY_TEAMS_PER_PAGE = 50;
const LEASE_TTL_MS = { rollback: 4 * 60_000, reconcile: 4 * 60_000, gate_sla: 4 * 60_000, daily: 15 * 60_000 } as const;

export type SweepDeps = Omit<RollbackDeps, "decisionCounters"> &
  ReconcileNeeds &
  GateSlaNeeds &
  SlackFeedNeeds &
  ArtifactRetentionNeeds & {
    decisionCounters: Pick<DecisionCounterStore, "teamsSince" | "pruneManifest">;
    sweepStore: SweepStore;
    memoryMaintenance: TeamMemoryMaintenance;
    memoryIndexSync: MemoryIndexSync;
  };

export type DailyReport = {
  approval_events_deleted: number;
  policy_memory_archived: number;
  staged_tasks_pruned: number;
  /** decision_log_batch rows past DECISION_MANIFEST_TTL_MS */
  decision_manifest_pruned: number;
  memory: { decayed: number; to_warm: number; to_cold: number; deleted: number; expired: number; unindexed: number };
  /** what the memory sweep did in each team object it swept this tick; due teams it left for the next (0: none; at
   * most one page is counted) */
  memory_teams: MemoryTeamReport[];
  memory_teams_left: number;
  /** artifacts past their kind's retention (row and object) and objects left without a row */
  artifacts: ArtifactSweepReport;
  errors: string[];
};

export type MemoryTeamReport = {
  team_id: string;
  decayed: number;
  to_warm: number;
  to_cold: number;
  deleted: number;
  expired: number;
  unindexed: number;
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
    memory_teams: [],
    memory_teams_left: 0,
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
  await step("memory lifecycle", () => sweepMemoryTeams(deps, now, report));
  await step("artifact retention", async () => {
    report.artifacts = await sweepArtifacts(deps, now);
  });
  log.info("daily sweep", { ...report });
  return report;
}

/**
 * The memory lifecycle, one team object at a time: decay, tier moves, deletes and TTL expiry in the object, then the
 * memories that left the hot tier leave the vector index. At most MEMORY_TEAMS_PER_TICK teams per tick; a team that
 * fails is reported and stays due (least recently swept first, so it leads the next tick).
 */
async function sweepMemoryTeams(deps: SweepDeps, now: number, report: DailyReport): Promise<void> {
  const tried = new Set<string>();
  const dueBefore = now - MEMORY_SWEEP_DUE_MS;
  // a swept team is no longer due; a failed one still is, so each page asks past the ones already tried
  let page = (await deps.memoryMaintenance.teamsDue(dueBefore, MEMORY_TEAMS_PER_PAGE)).filter((t) => !tried.has(t));
  while (page.length && tried.size < MEMORY_TEAMS_PER_TICK) {
    for (const teamId of page.slice(0, MEMORY_TEAMS_PER_TICK - tried.size)) {
      tried.add(teamId);
      try {
        report.memory_teams.push(await sweepMemoryTeam(deps, teamId, now));
      } catch (e) {
        report.errors.push(`memory lifecycle ${teamId}: ${String(e)}`);
        log.error("daily sweep: memory lifecycle of a team failed", { team_id: teamId, error: String(e) });
      }
    }
    const next = await deps.memoryMaintenance.teamsDue(dueBefore, MEMORY_TEAMS_PER_PAGE + tried.size);
    page = next.filter((t) => !tried.has(t));
  }
  // due teams left for the next tick: the page not reached (at most one page is counted) and the failed ones
  report.memory_teams_left = page.length + tried.size - report.memory_teams.length;
  for (const t of report.memory_teams) {
    for (const k of ["decayed", "to_warm", "to_cold", "deleted", "expired", "unindexed"] as const)
      report.memory[k] += t[k];
  }
}

async function sweepMemoryTeam(deps: SweepDeps, teamId: string, now: number): Promise<MemoryTeamReport> {
  const c = await deps.memoryMaintenance.sweepTeam(teamId, now, TIER_RULES);
  const left = [...c.tierLeftIndex, ...c.expiryLeftIndex];
  if (left.length) await deps.memoryIndexSync.remove(teamId, left);
  return {
    team_id: teamId,
    decayed: c.decayed,
    to_warm: c.toWarm,
    to_cold: c.toCold,
    deleted: c.deleted,
    expired: c.expired,
    unindexed: left.length,
  };
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
