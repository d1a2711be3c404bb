// The pages' pure read models: the trace timeline from a run view and its attempts, the overview's SLO figures and series.
import { DAY_MS } from "../../lib/time";

export { DAY_MS };

import { durationText, isoSeconds } from "../../lib/time-text";
import type { AttemptSample, GateCard, RunAttempt, TeamOverviewRaw } from "./store/overview-store-port";

export const SERIES_DAYS = 7;
/** the trace page refreshes itself this often while the run is live */
export const REFRESH_SECONDS = 5;
export const LIVE_STATUSES: ReadonlySet<string> = new Set(["PENDING", "RUNNING"]);

/** Nearest-rank percentile of ascending values (null when empty). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** What an operator does next about a dead letter, by its reason code. */
export function nextActionFor(reasonCode: string): string {
  if (reasonCode === "wrong_value") return "check the input and the extractor, then reissue (dead_letter_reissue gate)";
  if (reasonCode === "schema_invalid") return "fix the output schema or the prompt, then reissue";
  if (reasonCode === "budget_exhausted") return "raise the budget (budget_increase gate) or stop the run";
  if (reasonCode === "attempts_exhausted" || reasonCode === "tool_error")
    return "inspect the failing tool, then reissue once";
  if (reasonCode === "missing_failure_class" || reasonCode === "unknown_failure_class")
    return "report a known failure_class from the worker, then reissue";
  if (reasonCode === "lease_expired" || reasonCode === "rescues_exhausted")
    return "check the worker is alive, then reissue";
  if (reasonCode.startsWith("escalated:")) return "a human reviews the escalation, then reissues or stops the run";
  return "review the order, then reissue (dead_letter_reissue gate) or stop the run";
}

/** the parts of a run view the trace page reads (the RunView reply, loosely typed where it is loose) */
export type RunViewLike = {
  run_id: string;
  status: string;
  goal: string;
  steps: Record<string, unknown>[];
  orders: Record<string, unknown>[];
};

export type TraceStep = {
  /** the step's place on the whole timeline, 1 = the run's first (the page's `#`) */
  number: number;
  /** the run object's event sequence at the step; null once the run view no longer keeps the step */
  seq: number | null;
  at: number;
  order_id: string;
  task_id: string;
  /** who did the work: the subject that held the order's lease ("—" when not recorded) */
  agent: string;
  attempt: number;
  outcome: string;
  failure_class: string | null;
  next: string;
  tokens_in: number;
  tokens_out: number;
  latency_ms: number | null;
  gate_id: string | null;
  dead_letter_id: string | null;
  decision: { rule_id: string; action: string; selected_action: string; memrl_mode: string } | null;
  /** the artifacts the completion cited (docs/artifacts.md) */
  artifacts: string[];
};

const str = (v: unknown, d = ""): string => (typeof v === "string" ? v : d);
const idsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const int = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const optStr = (v: unknown): string | null => (typeof v === "string" ? v : null);
const UNKNOWN_AGENT = "—";

function decisionOf(d: unknown): TraceStep["decision"] {
  if (!d || typeof d !== "object") return null;
  const r = d as Record<string, unknown>;
  return {
    rule_id: str(r.rule_id),
    action: str(r.action),
    selected_action: str(r.selected_action),
    memrl_mode: str(r.memrl_mode),
  };
}

/**
 * The whole trace timeline, oldest first: every attempt of the run's D1 record (the run view keeps only its last
 * steps), enriched with what the run object still keeps of each (sequence, gate, dead letter, MemRL decision), plus
 * kept steps that are no attempt (a lease that expired) or whose attempt row is not written yet.
 */
export function traceSteps(view: RunViewLike, attempts: readonly RunAttempt[]): TraceStep[] {
  const kept = new Map(view.steps.map((s) => [str(s.op_id), s]));
  const taskOf = new Map(view.orders.map((o) => [str(o.order_id), str(o.task_id)]));
  const tries = triesOf(attempts);
  const fromAttempts: Omit<TraceStep, "number">[] = attempts.map((a) => {
    const s = kept.get(a.op_id);
    return {
      seq: s ? int(s.seq) : null,
      at: a.ended_at,
      order_id: a.order_id,
      task_id: s ? str(s.task_id) : (taskOf.get(a.order_id) ?? ""),
      agent: a.holder ?? optStr(s?.holder) ?? UNKNOWN_AGENT,
      attempt: s ? int(s.attempt) : (tries.get(a.op_id) ?? 0),
      outcome: a.outcome,
      failure_class: a.failure_class,
      next: a.next,
      tokens_in: a.tokens_in,
      tokens_out: a.tokens_out,
      latency_ms: Math.max(0, a.ended_at - a.started_at),
      gate_id: optStr(s?.gate_id),
      dead_letter_id: optStr(s?.dead_letter_id),
      decision: decisionOf(s?.decision),
      artifacts: idsOf(s?.artifacts),
    };
  });
  const recorded = new Set(attempts.map((a) => a.op_id));
  const onlyKept: Omit<TraceStep, "number">[] = view.steps
    .filter((s) => !recorded.has(str(s.op_id)))
    .map((s) => ({
      seq: int(s.seq),
      at: int(s.at),
      order_id: str(s.order_id),
      task_id: str(s.task_id),
      agent: optStr(s.holder) ?? UNKNOWN_AGENT,
      attempt: int(s.attempt),
      outcome: str(s.outcome),
      failure_class: optStr(s.failure_class),
      next: str(s.next),
      tokens_in: int(s.tokens_in),
      tokens_out: int(s.tokens_out),
      latency_ms: null,
      gate_id: optStr(s.gate_id),
      dead_letter_id: optStr(s.dead_letter_id),
      decision: decisionOf(s.decision),
      artifacts: idsOf(s.artifacts),
    }));
  return [...fromAttempts, ...onlyKept]
    .sort((x, y) => x.at - y.at || (x.seq ?? 0) - (y.seq ?? 0))
    .map((step, i) => ({ number: i + 1, ...step }));
}

/**
 * Each attempt's try of its order (1 = the order's first), from the attempt rows alone: an order counts every
 * completed attempt (the run object's `order.attempts + 1`), so its rows in completion order are tries 1, 2, 3…
 */
function triesOf(attempts: readonly RunAttempt[]): Map<string, number> {
  const byOrder = new Map<string, number>();
  const tries = new Map<string, number>();
  const ordered = [...attempts].sort((x, y) => x.ended_at - y.ended_at);
  for (const a of ordered) {
    const n = (byOrder.get(a.order_id) ?? 0) + 1;
    byOrder.set(a.order_id, n);
    tries.set(a.op_id, n);
  }
  return tries;
}

/** A gate as a step of the trace: who opened it and why, who decided through which channel, and its Slack card. */
export type GateStep = {
  gate_id: string;
  /** the page anchor (`#gate-<gate_id>`) Slack cards link to */
  anchor: string;
  slack_url: string | null;
};

/** The Slack link of each gate that has a posted card (app_redirect into the workspace's channel). */
export function gateSteps(gateIds: readonly string[], cards: readonly GateCard[]): GateStep[] {
  const byGate = new Map(cards.map((c) => [c.gate_id, c]));
  return gateIds.map((gate_id) => {
    const card = byGate.get(gate_id);
    const slack_url = card
      ? `https://slack.com/app_redirect?team=${encodeURIComponent(card.workspace_id)}&channel=${encodeURIComponent(card.channel)}&message_ts=${encodeURIComponent(card.ts)}`
      : null;
    return { gate_id, anchor: `gate-${gate_id}`, slack_url };
  });
}

export type DailySlo = {
  day_start: number;
  steps: number;
  step_p95_ms: number | null;
  success_rate: number | null;
  dead_letter_rate: number | null;
};

export type SloFigures = Omit<DailySlo, "day_start">;

function slo(attempts: readonly AttemptSample[], deadLetters: number): SloFigures {
  const latencies = attempts.map((a) => Math.max(0, a.ended_at - a.started_at)).sort((x, y) => x - y);
  const passed = attempts.filter((a) => a.outcome === "PASS").length;
  return {
    steps: attempts.length,
    step_p95_ms: percentile(latencies, 95),
    success_rate: attempts.length === 0 ? null : passed / attempts.length,
    dead_letter_rate: attempts.length === 0 ? null : deadLetters / attempts.length,
  };
}

/** The SLO figures over the whole window and per day for the last `days` days ending at `now` (oldest first). */
export function sloSeries(
  attempts: readonly AttemptSample[],
  deadLetterTimes: readonly number[],
  now: number,
  days = SERIES_DAYS,
): { total: SloFigures; daily: DailySlo[] } {
  const start = now - days * DAY_MS;
  const inWindow = attempts.filter((a) => a.ended_at >= start && a.ended_at <= now);
  const dls = deadLetterTimes.filter((t) => t >= start && t <= now);
  const daily: DailySlo[] = [];
  for (let i = 0; i < days; i++) {
    const from = start + i * DAY_MS;
    const to = from + DAY_MS;
    const last = i === days - 1;
    const inDay = (t: number) => t >= from && (last ? t <= to : t < to);
    daily.push({
      day_start: from,
      ...slo(
        inWindow.filter((a) => inDay(a.ended_at)),
        dls.filter(inDay).length,
      ),
    });
  }
  return { total: slo(inWindow, dls.length), daily };
}

export type Overview = TeamOverviewRaw & {
  now: number;
  slo: { total: SloFigures; daily: DailySlo[] };
  humanLatency: { p50: number | null; p95: number | null; samples: number };
};

/** The overview page's model: the raw reads plus the SLO series and the human approval latency percentiles. */
export function overviewModel(raw: TeamOverviewRaw, now: number): Overview {
  const sorted = [...raw.approvals.humanLatenciesMs].sort((a, b) => a - b);
  return {
    ...raw,
    now,
    slo: sloSeries(raw.attempts, raw.deadLetterTimes, now),
    humanLatency: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), samples: sorted.length },
  };
}

/** "3m 20s", "2h 5m", "4d 1h": a short age or duration (the one formatter, src/lib/time-text.ts). */
export const formatDuration = durationText;

export const formatPct = (v: number | null): string => (v === null ? "—" : `${(v * 100).toFixed(1)} %`);
export const formatMs = (v: number | null): string => (v === null ? "—" : `${Math.round(v)} ms`);
/** an absolute time on a page: ISO to the second, with its zone (UTC) */
export const isoTime = (ms: number): string => isoSeconds(ms);

/** Points of a polyline through `values` in a width × height box (nulls skipped; a flat line when all equal). */
export function sparkPoints(values: readonly (number | null)[], width: number, height: number): string {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return "";
  const max = Math.max(...known);
  const min = Math.min(...known);
  const span = max - min || 1;
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const pts: string[] = [];
  values.forEach((v, i) => {
    if (v === null) return;
    const y = max === min ? height / 2 : height - ((v - min) / span) * height;
    pts.push(`${(i * step).toFixed(1)},${y.toFixed(1)}`);
  });
  return pts.join(" ");
}

/** One day's bar of a sparkline: its box, or an empty day (no data) drawn as a faint tick on the baseline. */
export type SparkBar = { x: number; width: number; y: number; height: number; empty: boolean };

/**
 * A bar per value in a width × height box, scaled from 0 to the largest value (a rate of 100 % and one of 50 % keep
 * their proportion): one day with data is still a series of `values.length` days, never a lone dot.
 */
export function sparkBars(values: readonly (number | null)[], width: number, height: number): SparkBar[] {
  if (values.length === 0) return [];
  const max = Math.max(0, ...values.filter((v): v is number => v !== null));
  const slot = width / values.length;
  const barWidth = Math.max(1, slot * 0.7);
  return values.map((v, i) => {
    const x = i * slot + (slot - barWidth) / 2;
    if (v === null) return { x, width: barWidth, y: height - 1, height: 1, empty: true };
    // a zero (or an all-zero series) still shows a sliver, so a day with data never looks like a day without
    const h = max === 0 ? 1 : Math.max(1, (v / max) * height);
    return { x, width: barWidth, y: height - h, height: h, empty: false };
  });
}
