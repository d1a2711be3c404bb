// Use-case: the evidence an enforce promotion carries to its policy_deploy gate — replay, parity, conformance, trend.
import type { MemrlMode, MemrlPolicyProfile } from "../../../contracts/memrl-policy";
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { RouteLedger } from "../memory/domain";
import { MAX_SESSION_ROWS, SESSION_HISTORY_MS } from "../metrics";
import type { DecisionLogNeeds } from "./decision-log";
import { readDecisions } from "./decision-log-reader";
import { type CompiledProfile, compileProfile } from "./evaluator";
import {
  ACK_THRESHOLD,
  acksRequired,
  type ConformanceReport,
  conformanceCheck,
  failingCases,
  type ParityReport,
  parityCheck,
} from "./promotion-checks";
import {
  compareTrend,
  DEFAULT_TREND_THRESHOLDS,
  TREND_WINDOW_MS,
  type TrendThresholds,
  trendWindows,
} from "./regression-gate";
import { replayDecisions } from "./replay";
import type { PolicyStore } from "./store/policy-store-port";

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
    by_class: { failure_class: string; decisions: number; changes: number; ack_required: boolean }[];
    ack_threshold: number;
    example_decision_ids: string[];
  };
  parity: { checked: number; passed: number };
  conformance: { cases: number; passed: number };
  /** the classes the approval note must acknowledge (`ack:<class>`); the control run refuses an approval without them */
  acks_required: string[];
  /** one line of the above for the gate's Slack card (cards show top-level scalars only) */
  promotion_checks: string;
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

/** A refusal naming every failing parity and conformance case (422 `rejected`, the ids in details.rule_ids). */
function checksRefusal(parity: ParityReport, conformance: ConformanceReport): AppError {
  const reasons = [
    ...conformance.failures.map((f) => `conformance.${f.id} (${f.reason})`),
    ...parity.failures.map(
      (f) => `parity.${f.decision_id} (off selected ${f.selected_action}, legacy was ${f.legacy_action})`,
    ),
  ];
  return {
    code: "rejected",
    message: `promotion to enforce refused: ${conformance.failures.length} conformance and ${parity.failures.length} parity case(s) fail: ${reasons.slice(0, 20).join("; ")}`,
    ruleIds: failingCases(parity, conformance),
  };
}

const summaryLine = (e: Omit<PromotionEvidence, "promotion_checks" | "trend">) =>
  [
    `replay ${e.replay.changes}/${e.replay.decisions} changed`,
    e.acks_required.length ? `ack needed: ${e.acks_required.map((c) => `ack:${c}`).join(" ")}` : "no ack needed",
    `parity ${e.parity.passed}/${e.parity.checked}`,
    `conformance ${e.conformance.passed}/${e.conformance.cases}`,
  ].join(" · ");

/**
 * Promotion to enforce (seed 000, step 3: "after replay + parity + conformance tests pass"; seed 002,
 * evaluation_trend_regression_gate): `profile` must pass the built-in conformance cases, the trend gate, and parity
 * over the candidate window's logged decisions; then that window is replayed under it, counting changed decisions
 * per failure class. A failure is an error value (`rejected` listing the failing cases, or `regression` carrying the
 * comparison); nothing is read-modify-written, so a refusal leaves no state behind.
 */
export async function promotionEvidence(
  deps: PromotionEvidenceNeeds,
  teamId: string,
  /** the candidate profile, or the active one already compiled (a ceiling raise: compiled once, not per request) */
  candidate: MemrlPolicyProfile | CompiledProfile,
  now: number,
  /** a ceiling raise replays every decision under the raised ceiling instead of the one it was made under */
  ceiling: MemrlMode | undefined,
  thresholds: TrendThresholds = DEFAULT_TREND_THRESHOLDS,
): Promise<Result<PromotionEvidence, AppError>> {
  // compiling costs more than everything else here but the reads: once, for conformance, parity and the replay
  const compiled = "tables" in candidate ? candidate : compileProfile(candidate, -1);
  const profile = compiled.profile;
  const conformance = conformanceCheck(compiled);
  const noParity: ParityReport = { checked: 0, failures: [] };
  if (conformance.failures.length > 0) return err(checksRefusal(noParity, conformance));
  const gate = await trendGateWithDecisions(deps, teamId, now, thresholds);
  if (!gate.ok) return gate;
  const candidateFrom = now - TREND_WINDOW_MS;
  const window = gate.value.decisions.filter((d) => d.created_at >= candidateFrom);
  const parity = parityCheck(compiled, window);
  if (parity.failures.length > 0) return err(checksRefusal(parity, conformance));
  const report = replayDecisions(profile, window, ceiling, compiled);
  const evidence = {
    replay: {
      from: iso(candidateFrom),
      decisions: report.total,
      changes: report.changed,
      by_rule: report.by_rule,
      by_class: report.by_class.map((c) => ({ ...c, ack_required: c.changes > ACK_THRESHOLD })),
      ack_threshold: ACK_THRESHOLD,
      example_decision_ids: report.examples.slice(0, EXAMPLE_IDS).map((e) => e.decision_id),
    },
    parity: { checked: parity.checked, passed: parity.checked },
    conformance: { cases: conformance.cases, passed: conformance.cases },
    acks_required: acksRequired(report.by_class),
  };
  return ok({ ...evidence, promotion_checks: summaryLine(evidence), trend: gate.value.trend });
}
