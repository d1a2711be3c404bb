// Port: the per-team counters behind GET /v1/metrics, read in one round trip.
import type { GateOutcome } from "../../../lib/gate-outcome";
import type { DecisionCounts } from "../../../ports/decision-log";

/** one ops-warden session_event, as the metrics read it */
export type SessionRow = {
  id: string;
  session_kind: string;
  outcome: string;
  need_fingerprint: string;
  route_id: string;
  created_at: number;
};

export type TeamMetricsRaw = {
  tokensIn: number;
  tokensOut: number;
  gatesByKind: Record<string, number>;
  autoApprovals: number;
  /** approved or denied by a person (GATE_OUTCOMES through a human channel) */
  humanApprovals: number;
  /** approval rows per outcome (rows from before outcomes were recorded count in none) */
  gateOutcomes: Record<GateOutcome, number>;
  /** human decision latencies in the window, ascending */
  humanLatenciesMs: number[];
  deadLettersOpen: number;
  deadLettersCreated: number;
  dlqCount: number;
  dlqRecent: { event_id: string | null; type: string | null; attempts: number; received_at: number }[];
  decisions: DecisionCounts;
  /** session events from `historySince` on, oldest first */
  sessions: SessionRow[];
  ceiling: string;
  rollbacks: { at: number; metadata: Record<string, unknown> }[];
  learningAborted: number;
};

export interface MetricsStore {
  /** everything but the decision counts (the decision log's reader counts those: features/policy) */
  teamMetrics(teamId: string, since: number, historySince: number): Promise<Omit<TeamMetricsRaw, "decisions">>;
}
