// Use-case: GET /v1/metrics for one team over a window — counters, approval latency, decision rates, ops-warden.

import { metricValue } from "../sweeps/domain";
import type { MetricsNeeds } from "./needs";
import { type OpsWardenMetrics, opsWardenMetrics, percentile } from "./ops-warden";
import type { TeamMetricsRaw } from "./store/metrics-store-port";

/** How far back session history reaches to find a need's earlier resolution. */
export const SESSION_HISTORY_MS = 30 * 86_400_000;
/** session episodes read per metrics request (history included) */
export const MAX_SESSION_ROWS = 20_000;

const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);

/** Gates, approvals, dead letters and decision rates of the window. */
export function gateAndDecisionFigures(raw: TeamMetricsRaw) {
  const byKind = { auto: 0, soft: 0, hard: 0, deny: 0, ...raw.gatesByKind };
  return {
    tokens_in: raw.tokensIn,
    tokens_out: raw.tokensOut,
    gates_by_kind: byKind,
    policy_soft_gate_count: byKind.soft,
    policy_hard_gate_count: byKind.hard,
    auto_approvals: raw.autoApprovals,
    human_approvals: raw.humanApprovals,
    gate_outcomes: raw.gateOutcomes,
    human_approval_latency_ms: {
      p50: percentile(raw.humanLatenciesMs, 50),
      p95: percentile(raw.humanLatenciesMs, 95),
      samples: raw.humanLatenciesMs.length,
    },
    dead_letters: { open: raw.deadLettersOpen, created: raw.deadLettersCreated },
    dlq_count: raw.dlqCount,
    dlq_recent: raw.dlqRecent.map((d) => ({ ...d, received_at: new Date(d.received_at).toISOString() })),
    decisions: raw.decisions.decisions,
    escalation_rate: round4(metricValue("escalation_rate", raw.decisions)),
    unknown_failure_class_ratio: round4(metricValue("unknown_failure_class_ratio", raw.decisions)),
    missing_metadata_count: raw.decisions.missingMetadata,
  };
}

/** The ops-warden routing figures under their response names (ratios rounded to 4 places). */
export function routingFigures(ops: OpsWardenMetrics) {
  return {
    llm_calls_avoided_count: ops.llm_calls_avoided_count,
    routing_repeat_accuracy: round4(ops.routing_repeat_accuracy),
    cross_runtime_continuity: round4(ops.cross_runtime_continuity),
    stale_serves: ops.stale_serves,
    routing_sessions: ops.sessions,
    routing_repeats: ops.repeats,
    routes_served: ops.served,
    cross_runtime_repeats: ops.cross_runtime_repeats,
  };
}

/** The mode ceiling and the rollbacks of the window, each with the trigger that fired it. */
export function rollbackFigures(raw: Pick<TeamMetricsRaw, "ceiling" | "rollbacks">) {
  return {
    mode_ceiling: raw.ceiling,
    rollback_count: raw.rollbacks.length,
    rollback_events: raw.rollbacks.map((r) => ({
      at: new Date(r.at).toISOString(),
      trigger_id: r.metadata.trigger_id ?? null,
      metric: r.metadata.metric ?? null,
      value: r.metadata.value ?? null,
      threshold: r.metadata.threshold ?? null,
      from: r.metadata.from ?? null,
      to: r.metadata.to ?? null,
    })),
  };
}

export async function teamMetrics(deps: MetricsNeeds, teamId: string, window: string, windowMs: number, now: number) {
  const since = now - windowMs;
  const [rows, sessionRows, decisions] = await Promise.all([
    deps.metricsStore.teamMetrics(teamId, since, since - SESSION_HISTORY_MS),
    deps.routeLedger.sessionsWithServes(teamId, since - SESSION_HISTORY_MS, MAX_SESSION_ROWS),
    deps.decisionCounts(teamId, since),
  ]);
  const raw: TeamMetricsRaw = { ...rows, decisions };
  return {
    team_id: teamId,
    window,
    from: new Date(since).toISOString(),
    to: new Date(now).toISOString(),
    ...gateAndDecisionFigures(raw),
    ...routingFigures(opsWardenMetrics(sessionRows, since)),
    ...rollbackFigures(raw),
    learning_aborted_runs: raw.learningAborted,
  };
}
