// MetricsStore over D1: every GET /v1/metrics counter for one team in one db.batch of read statements.
import type { MetricsStore, SessionRow } from "../../ports/metrics-store";
import { STOP_ABORT_REASON } from "../../ports/run-record";

const AUTOMATIC_APPROVERS = "('policy', 'timer', 'system')";
const MAX_LATENCIES = 10_000;
const MAX_SESSIONS = 20_000;

export function createD1MetricsStore(db: D1Database): MetricsStore {
  return {
    async teamMetrics(teamId, since, historySince) {
      const q = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
      const results = await db.batch<Record<string, unknown>>([
        q(
          `SELECT coalesce(sum(a.tokens_in), 0) AS tokens_in, coalesce(sum(a.tokens_out), 0) AS tokens_out
           FROM attempt a JOIN runs r ON r.run_id = a.run_id WHERE r.team_id = ? AND a.ended_at >= ?`,
          teamId,
          since,
        ),
        q(
          `SELECT coalesce(kind, 'unknown') AS kind, count(*) AS n FROM gate_metric
           WHERE team_id = ? AND opened_at >= ? GROUP BY kind ORDER BY kind`,
          teamId,
          since,
        ),
        q(
          `SELECT coalesce(sum(decision = 'auto_allow' OR (decision = 'allow' AND approver = 'policy')), 0) AS auto,
             coalesce(sum(approver NOT IN ${AUTOMATIC_APPROVERS} AND coalesce(reason, '') <> ?), 0) AS human
           FROM approval_event WHERE team_id = ? AND created_at >= ?`,
          STOP_ABORT_REASON,
          teamId,
          since,
        ),
        q(
          `SELECT latency_ms FROM gate_metric
           WHERE team_id = ? AND decided_at >= ? AND latency_ms IS NOT NULL
             AND decided_by IS NOT NULL AND decided_by NOT IN ${AUTOMATIC_APPROVERS}
             AND NOT EXISTS (SELECT 1 FROM approval_event ae
                             WHERE ae.team_id = gate_metric.team_id AND ae.gate_id = gate_metric.gate_id AND ae.reason = ?)
           ORDER BY latency_ms LIMIT ${MAX_LATENCIES}`,
          teamId,
          since,
          STOP_ABORT_REASON,
        ),
        q(
          `SELECT coalesce(sum(resolved_at IS NULL), 0) AS open, coalesce(sum(created_at >= ?), 0) AS created
           FROM dead_letter WHERE team_id = ?`,
          since,
          teamId,
        ),
        q("SELECT count(*) AS n FROM event_dead_letter WHERE team_id = ? AND received_at >= ?", teamId, since),
        q(
          `SELECT event_id, type, attempts, received_at FROM event_dead_letter WHERE team_id = ?
           ORDER BY received_at DESC, id LIMIT 10`,
          teamId,
        ),
        q(
          `SELECT count(*) AS decisions,
             coalesce(sum(selected_action = 'escalate'), 0) AS escalations,
             coalesce(sum(rule_id = 'default.unknown_failure_class'), 0) AS unknown_class,
             coalesce(sum(rule_id = 'default.missing_metadata'), 0) AS missing_metadata
           FROM policy_decision WHERE team_id = ? AND created_at >= ?`,
          teamId,
          since,
        ),
        q(
          `SELECT id, session_kind, outcome, need_fingerprint, route_id, created_at FROM session_event
           WHERE team_id = ? AND created_at >= ? ORDER BY created_at, id LIMIT ${MAX_SESSIONS}`,
          teamId,
          historySince,
        ),
        q("SELECT ceiling FROM team_mode WHERE team_id = ?", teamId),
        q(
          `SELECT created_at, metadata FROM audit_log WHERE team_id = ? AND action = 'policy.rollback'
           AND created_at >= ? ORDER BY created_at DESC, id LIMIT 50`,
          teamId,
          since,
        ),
        q(
          `SELECT count(*) AS n FROM audit_log WHERE team_id = ? AND action = 'policy_memory.learning_aborted'
           AND created_at >= ?`,
          teamId,
          since,
        ),
      ]);
      const rows = (i: number) => results[i]?.results ?? [];
      const one = (i: number) => rows(i)[0] ?? {};
      const n = (v: unknown) => (typeof v === "number" ? v : 0);
      const decisions = one(7);
      return {
        tokensIn: n(one(0).tokens_in),
        tokensOut: n(one(0).tokens_out),
        gatesByKind: Object.fromEntries(rows(1).map((r) => [String(r.kind), n(r.n)])),
        autoApprovals: n(one(2).auto),
        humanApprovals: n(one(2).human),
        humanLatenciesMs: rows(3).map((r) => n(r.latency_ms)),
        deadLettersOpen: n(one(4).open),
        deadLettersCreated: n(one(4).created),
        dlqCount: n(one(5).n),
        dlqRecent: rows(6).map((r) => ({
          event_id: (r.event_id as string | null) ?? null,
          type: (r.type as string | null) ?? null,
          attempts: n(r.attempts),
          received_at: n(r.received_at),
        })),
        decisions: {
          decisions: n(decisions.decisions),
          escalations: n(decisions.escalations),
          unknownClass: n(decisions.unknown_class),
          missingMetadata: n(decisions.missing_metadata),
        },
        sessions: rows(8) as SessionRow[],
        ceiling: typeof one(9).ceiling === "string" ? (one(9).ceiling as string) : "enforce",
        rollbacks: rows(10).map((r) => {
          let metadata: Record<string, unknown> = {};
          try {
            metadata = JSON.parse(String(r.metadata)) as Record<string, unknown>;
          } catch {}
          return { at: n(r.created_at), metadata };
        }),
        learningAborted: n(one(11).n),
      };
    },
  };
}
