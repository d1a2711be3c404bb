// Use-case: the evidence an enforce promotion carries to its policy_deploy gate — replay of the decision log, trend.
import type { MemrlMode, MemrlPolicyProfile } from "../../../contracts/memrl-policy";
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { PolicyStore } from "../../ports/policy-store";
import type { RouteLedger } from "../../ports/route-ledger";
import { MAX_SESSION_ROWS, SESSION_HISTORY_MS } from "../metrics";
import type { DecisionLogNeeds } from "./decision-log";
import { readDecisions } from "./decision-log-reader";
import {
  compareTrend,
  DEFAULT_TREND_THRESHOLDS,
  TREND_WINDOW_MS,
  type TrendThresholds,
  trendWindows,
} from "./regression-gate";
import { replayDecisions } from "./replay";

export type PromotionEvidenceNeeds = Pick<DecisionLogNeeds, "decisionObjects"> & {
  policyStore: Pick<PolicyStore, "loggedDecisions">;
  routeLedger: Pick<RouteLedger, "sessionsWithServes">;
};

/** decisions and session episodes read per promotion (the same bounds as POST /v1/policy/replay and GET /v1/metrics) */
const DECISIONS_LIMIT = 10_000;
/** the gate shows this many changed decisions by id; the counts by rule are complete */
const EXAMPLE_IDS = 10;

export type PromotionEvidence = {
  replay: {
    from: string;
    decisions: number;
    changes: number;
    by_rule: { from_rule_id: string; to_rule_id: string; count: number }[];
    example_decision_ids: string[];
  };
  trend: ReturnType<typeof trendView>;
};

const iso = (ms: number) => new Date(ms).toISOString();

function trendView(
  windows: ReturnType<typeof trendWindows>,
  verdict: ReturnType<typeof compareTrend>,
  t: TrendThresholds,
) {
  const view = ({ from, to, ...rest }: (typeof windows)["baseline"]) => ({ from: iso(from), to: iso(to), ...rest });
  return {
    baseline: view(windows.baseline),
    candidate: view(windows.candidate),
    thresholds: t,
    regressed: !verdict.ok,
    regressions: verdict.ok ? [] : verdict.regressions,
  };
}

/** The trend comparison alone, before anything is written: its view, or a `regression` error carrying it. */
async function trendGateWithDecisions(
  deps: PromotionEvidenceNeeds,
  teamId: string,
  now: number,
  thresholds: TrendThresholds,
) {
  const baselineFrom = now - 2 * TREND_WINDOW_MS;
  const [decisions, sessions] = await Promise.all([
    readDecisions(deps, teamId, baselineFrom, DECISIONS_LIMIT).then((r) => r.decisions),
    deps.routeLedger.sessionsWithServes(teamId, baselineFrom - SESSION_HISTORY_MS, MAX_SESSION_ROWS),
  ]);
  const windows = trendWindows(decisions, sessions, now);
  const verdict = compareTrend(windows.baseline, windows.candidate, thresholds);
  const trend = trendView(windows, verdict, thresholds);
  if (!verdict.ok) {
    const names = verdict.regressions.map((r) => r.metric).join(", ");
    return err<AppError>({
      code: "regression",
      message: `the candidate window regressed beyond its threshold on ${names}`,
      details: { trend },
    });
  }
  return ok({ trend, decisions });
}

/**
 * evaluation_trend_regression_gate for routing changes other than a profile (seed 002: "when promoting worker or
 * routing changes"): route pins and gate-rule changes pass it before they are stored.
 */
export async function trendGate(
  deps: PromotionEvidenceNeeds,
  teamId: string,
  now: number,
  thresholds: TrendThresholds = DEFAULT_TREND_THRESHOLDS,
): Promise<Result<{ trend: PromotionEvidence["trend"] }, AppError>> {
  const gate = await trendGateWithDecisions(deps, teamId, now, thresholds);
  return gate.ok ? ok({ trend: gate.value.trend }) : gate;
}

/**
 * Promotion to enforce (seed 000, step 3; seed 002, evaluation_trend_regression_gate): replays the candidate
 * window's logged decisions under `profile` and compares the candidate window's metrics with the baseline window's.
 * A regression beyond a threshold is a `regression` error carrying the comparison; nothing is read-modify-written,
 * so a refusal leaves no state behind.
 */
export async function promotionEvidence(
  deps: PromotionEvidenceNeeds,
  teamId: string,
  profile: MemrlPolicyProfile,
  now: number,
  /** a ceiling raise replays every decision under the raised ceiling instead of the one it was made under */
  ceiling: MemrlMode | undefined,
  thresholds: TrendThresholds = DEFAULT_TREND_THRESHOLDS,
): Promise<Result<PromotionEvidence, AppError>> {
  const gate = await trendGateWithDecisions(deps, teamId, now, thresholds);
  if (!gate.ok) return gate;
  const candidateFrom = now - TREND_WINDOW_MS;
  const report = replayDecisions(
    profile,
    gate.value.decisions.filter((d) => d.created_at >= candidateFrom),
    ceiling,
  );
  return ok({
    replay: {
      from: iso(candidateFrom),
      decisions: report.total,
      changes: report.changed,
      by_rule: report.by_rule,
      example_decision_ids: report.examples.slice(0, EXAMPLE_IDS).map((e) => e.decision_id),
    },
    trend: gate.value.trend,
  });
}
