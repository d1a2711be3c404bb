// Use-case: evaluate every active profile's rollback triggers and lower breached teams' mode ceilings.

import type { MemrlMode, RollbackTrigger } from "../../../contracts/memrl-policy";
import { log } from "../../lib/log";
import type { DecisionCounterStore, DecisionCounts } from "../../ports/decision-log";
import type { EventBus } from "../../ports/event-bus";
import { denyOpenGates, type SystemDenyNeeds } from "../gates";
import { DEPLOY_POLICY_KEY, isDeployOpOf, ROLLBACK_APPROVER } from "../gates/domain";
import type { PolicyStore } from "../policy/domain";
import { lowerMode, type TeamPolicyCache } from "../policy/domain";
import { evaluateTrigger, MAX_WINDOW_MS, parseWindow, type TriggerResult, targetMode } from "./rollback";
import type { SweepStore } from "./store/sweep-store-port";

export type RollbackDeps = {
  sweepStore: SweepStore;
  policyStore: PolicyStore;
  policies: TeamPolicyCache;
  events: EventBus;
  newId: (prefix: string) => string;
  /** the decision log: teams with recent counters, and a team's counts since a time (features/policy) */
  decisionCounters: Pick<DecisionCounterStore, "teamsSince">;
  decisionCounts: (teamId: string, since: number) => Promise<DecisionCounts>;
} & Partial<SystemDenyNeeds>;

export type TeamRollback = {
  team_id: string;
  profile_version: number;
  ceiling_before: MemrlMode;
  ceiling_after: MemrlMode;
  triggers: (TriggerResult & { action?: { from: MemrlMode; to: MemrlMode } })[];
  /** pending ceiling-change gates the rollback denied (system:rollback) */
  denied_gates?: string[];
};

/** Teams with decisions in the last 30 days; each trigger over its own window, only with enough samples. */
export async function evaluateRollbackMatrix(deps: RollbackDeps, now: number): Promise<TeamRollback[]> {
  const report: TeamRollback[] = [];
  for (const teamId of await deps.decisionCounters.teamsSince(now - MAX_WINDOW_MS)) {
    report.push(await evaluateTeam(deps, teamId, now));
  }
  return report;
}

/** One team's triggers in profile order; each breach lowers the ceiling further (never raises it). */
async function evaluateTeam(deps: RollbackDeps, teamId: string, now: number): Promise<TeamRollback> {
  const { compiled } = await deps.policies.get(teamId, now);
  const before = await deps.policyStore.modeCeiling(teamId);
  let ceiling = before;
  // one count per distinct window
  const counts = new Map<number, DecisionCounts>();
  const triggers: TeamRollback["triggers"] = [];
  for (const trigger of compiled.profile.rollback_matrix) {
    const windowMs = parseWindow(trigger.lookback_window);
    if (windowMs === null) {
      triggers.push(invalidWindow(trigger));
      continue;
    }
    let c = counts.get(windowMs);
    if (!c) {
      c = await deps.decisionCounts(teamId, now - windowMs);
      counts.set(windowMs, c);
    }
    const result = evaluateTrigger(trigger, c);
    const to = result.status === "breach" ? lowerMode(ceiling, targetMode(trigger.operator_action, ceiling)) : ceiling;
    if (to === ceiling) {
      triggers.push(result);
      continue;
    }
    const step = { teamId, now, trigger, result, from: ceiling, to, profileVersion: compiled.version };
    if (await lowerCeiling(deps, step)) {
      triggers.push({ ...result, action: { from: ceiling, to } });
      ceiling = to;
    } else {
      // Someone lowered it further meanwhile; read the truth and move on.
      ceiling = await deps.policyStore.modeCeiling(teamId);
      triggers.push(result);
    }
  }
  log.info("rollback matrix", { team_id: teamId, before, after: ceiling });
  const denied = ceiling === before ? [] : await denyCeilingChanges(deps, teamId, before, ceiling);
  return {
    team_id: teamId,
    profile_version: compiled.version,
    ceiling_before: before,
    ceiling_after: ceiling,
    triggers,
    ...(denied.length ? { denied_gates: denied } : {}),
  };
}

/**
 * After a lowering, the mode-ceiling changes still pending behind their policy_deploy gates are denied by
 * system:rollback (channel rollback): approved later, they would undo the rollback with evidence from before it.
 * A failure is logged; the lowering stands.
 */
async function denyCeilingChanges(deps: RollbackDeps, teamId: string, from: MemrlMode, to: MemrlMode) {
  const { runIndex, runs } = deps;
  if (!runIndex || !runs) return [];
  try {
    return await denyOpenGates({ runIndex, runs }, teamId, {
      decider: ROLLBACK_APPROVER,
      note: `superseded by a rollback: mode ceiling lowered ${from} → ${to}`,
      which: (g) => g.policy_key === DEPLOY_POLICY_KEY && isDeployOpOf("ceiling", g.op_id),
    });
  } catch (e) {
    log.error("rollback: pending ceiling gates", { team_id: teamId, error: String(e) });
    return [];
  }
}

function invalidWindow(trigger: RollbackTrigger): TriggerResult {
  return {
    trigger_id: trigger.trigger_id,
    metric: trigger.metric,
    window: trigger.lookback_window,
    sample: 0,
    min_sample_size: trigger.min_sample_size,
    value: null,
    threshold: trigger.threshold,
    status: "invalid",
    reason: "lookback_window is not <n>m|h|d|w up to 30d",
  };
}

type Lowering = {
  teamId: string;
  now: number;
  trigger: RollbackTrigger;
  result: TriggerResult;
  from: MemrlMode;
  to: MemrlMode;
  profileVersion: number;
};

/**
 * Lowers the ceiling with its audit row (guarded: false when it is no longer `from`), then announces it with a
 * `policy.rollback` event and drops the team's cached policy. A failed publish is logged: the ceiling stays lowered.
 */
async function lowerCeiling(deps: RollbackDeps, l: Lowering): Promise<boolean> {
  const { trigger, result } = l;
  const reason = `rollback trigger ${trigger.trigger_id}: ${trigger.threshold} (value ${result.value}, ${result.sample} decisions in ${trigger.lookback_window})`;
  const changed = await deps.sweepStore.lowerCeiling({
    teamId: l.teamId,
    from: l.from,
    to: l.to,
    reason,
    now: l.now,
    audit: {
      id: deps.newId("aud"),
      actor: "rollback-matrix",
      metadata: {
        trigger_id: trigger.trigger_id,
        metric: trigger.metric,
        value: result.value,
        sample: result.sample,
        threshold: trigger.threshold,
        lookback_window: trigger.lookback_window,
        operator_action: trigger.operator_action,
        verification_command: trigger.verification_command,
        profile_version: l.profileVersion,
      },
    },
  });
  if (!changed) return false;
  await deps.events
    .publish([
      {
        event_id: deps.newId("evt"),
        type: "policy.rollback",
        team_id: l.teamId,
        run_id: null,
        occurred_at: l.now,
        trigger_id: trigger.trigger_id,
        metric: trigger.metric,
        value: result.value,
        sample: result.sample,
        threshold: trigger.threshold,
        from: l.from,
        to: l.to,
        verification_command: trigger.verification_command,
      },
    ])
    .catch((e) => log.error("rollback event publish failed", { e: `${e}` }));
  deps.policies.invalidate(l.teamId);
  return true;
}
