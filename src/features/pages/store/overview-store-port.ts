// Port: the read model behind the team overview and the trace page's per-step latencies (one team, read-only).

import type { RunListRow } from "../../runs/domain";

export type OverviewRun = RunListRow & {
  tokens_in: number;
  tokens_out: number;
  /** sum of the run's work orders' cost_budget_tokens (null when no order names one) */
  budget_tokens: number | null;
  /** attempts that failed budget_exceeded: the run's budget is breached when this is above 0 (src/lib/budget.ts) */
  budget_breaches: number;
};

export type OverviewGate = {
  gate_id: string;
  run_id: string;
  policy_key: string | null;
  kind: string | null;
  opened_at: number;
};

export type OverviewDeadLetter = {
  id: string;
  run_id: string;
  op_id: string;
  reason_code: string;
  created_at: number;
};

/** token spend per task (the agent persona doing the work) across the team's recent runs */
export type TaskSpend = { task_id: string; tokens_in: number; tokens_out: number; budget_tokens: number | null };

/** one attempt, as the SLO series read it */
export type AttemptSample = { outcome: string; next: string; started_at: number; ended_at: number };

export type TeamOverviewRaw = {
  runs: OverviewRun[];
  openGates: OverviewGate[];
  deadLetters: OverviewDeadLetter[];
  taskSpend: TaskSpend[];
  /** token spend per persona (the lease holder token's persona_id; null = attempts by tokens without one) */
  personaSpend: { persona_id: string | null; tokens_in: number; tokens_out: number }[];
  approvals: { auto: number; human: number; humanLatenciesMs: number[] };
  /** attempts ended since `since`, oldest first (bounded) */
  attempts: AttemptSample[];
  /** creation times of the team's dead letters since `since` */
  deadLetterTimes: number[];
  mode: { ceiling: string; reason: string | null; updated_at: number | null };
  lastRollback: { at: number; metadata: Record<string, unknown> } | null;
};

/** one attempt of a run with its timing (the trace page's latency per step) */
export type RunAttempt = {
  op_id: string;
  order_id: string;
  outcome: string;
  failure_class: string | null;
  next: string;
  /** the lease holder's subject (null on attempts recorded before it was kept) */
  holder: string | null;
  tokens_in: number;
  tokens_out: number;
  started_at: number;
  ended_at: number;
};

export interface OverviewStore {
  /** the team's overview: recent runs, open gates, unresolved dead letters, spend, approvals and samples since `since` */
  teamOverview(teamId: string, since: number): Promise<TeamOverviewRaw>;
  /** the attempts of one of the team's runs (empty when the run is another team's) */
  runAttempts(teamId: string, runId: string): Promise<RunAttempt[]>;
  /** the Slack cards posted for these gates of the team (message key `gate:<gate_id>`), with the team's workspace */
  gateCards(teamId: string, gateIds: readonly string[]): Promise<GateCard[]>;
}

/** where a gate's Slack card was posted */
export type GateCard = { gate_id: string; workspace_id: string; channel: string; ts: string };
