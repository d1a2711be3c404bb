// Use-case: evaluate every active profile's rollback triggers and lower breached teams' mode ceilings.
import type { MemrlMode } from "../../../contracts/memrl-policy";
import type { EventBus } from "../../ports/event-bus";
import type { PolicyStore } from "../../ports/policy-store";
import type { DecisionCounts, SweepStore } from "../../ports/sweep-store";
import { lowerMode, type TeamPolicyCache } from "../policy/domain";
import { evaluateTrigger, MAX_WINDOW_MS, parseWindow, type TriggerResult, targetMode } from "./rollback";

export type RollbackDeps = {
  sweepStore: SweepStore;
  policyStore: PolicyStore;
  policies: TeamPolicyCache;
  events: EventBus;
  newId: (prefix: string) => string;
};

export type TeamRollback = {
  team_id: string;
  profile_version: number;
  ceiling_before: MemrlMode;
  ceiling_after: MemrlMode;
  triggers: (TriggerResult & { action?: { from: MemrlMode; to: MemrlMode } })[];
};

/** Teams with decisions in the last 30 days; each trigger over its own window, only with enough samples. */
export async function evaluateRollbackMatrix(deps: RollbackDeps, now: number): Promise<TeamRollback[]> {
  const report: TeamRollback[] = [];
  for (const teamId of await deps.sweepStore.teamsWithDecisionsSince(now - MAX_WINDOW_MS)) {
    const { compiled } = await deps.policies.get(teamId, now);
    const before = await deps.policyStore.modeCeiling(teamId);
    let ceiling = before;
    const counts = new Map<number, DecisionCounts>();
    const triggers: TeamRollback["triggers"] = [];
    for (const trigger of compiled.profile.rollback_matrix) {
      const windowMs = parseWindow(trigger.lookback_window);
      if (windowMs === null) {
        triggers.push({
          trigger_id: trigger.trigger_id,
          metric: trigger.metric,
          window: trigger.lookback_window,
          sample: 0,
          min_sample_size: trigger.min_sample_size,
          value: null,
          threshold: trigger.threshold,
          status: "invalid",
          reason: "lookback_window is not <n>m|h|d|w up to 30d",
        });
        continue;
      }
      let c = counts.get(windowMs);
      if (!c) {
        c = await deps.sweepStore.decisionCounts(teamId, now - windowMs);
        counts.set(windowMs, c);
      }
      const result = evaluateTrigger(trigger, c);
      if (result.status !== "breach") {
        triggers.push(result);
        continue;
      }
      const to = lowerMode(ceiling, targetMode(trigger.operator_action, ceiling));
      if (to === ceiling) {
        triggers.push(result);
        continue;
      }
      const reason = `rollback trigger ${trigger.trigger_id}: ${trigger.threshold} (value ${result.value}, ${result.sample} decisions in ${trigger.lookback_window})`;
      const changed = await deps.sweepStore.lowerCeiling({
        teamId,
        from: ceiling,
        to,
        reason,
        now,
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
            profile_version: compiled.version,
          },
        },
      });
      if (!changed) {
        // Someone lowered it further meanwhile; read the truth and move on.
        ceiling = await deps.policyStore.modeCeiling(teamId);
        triggers.push(result);
        continue;
      }
      triggers.push({ ...result, action: { from: ceiling, to } });
      await deps.events
        .publish([
          {
            event_id: deps.newId("evt"),
            type: "policy.rollback",
            team_id: teamId,
            run_id: null,
            occurred_at: now,
            trigger_id: trigger.trigger_id,
            metric: trigger.metric,
            value: result.value,
            sample: result.sample,
            threshold: trigger.threshold,
            from: ceiling,
            to,
            verification_command: trigger.verification_command,
          },
        ])
        .catch((e) =>
          console.error(JSON.stringify({ level: "error", msg: "rollback event publish failed", e: `${e}` })),
        );
      ceiling = to;
      deps.policies.invalidate(teamId);
    }
    console.log(JSON.stringify({ level: "info", msg: "rollback matrix", team_id: teamId, before, after: ceiling }));
    report.push({
      team_id: teamId,
      profile_version: compiled.version,
      ceiling_before: before,
      ceiling_after: ceiling,
      triggers,
    });
  }
  return report;
}
