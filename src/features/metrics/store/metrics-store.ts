// MetricsStore over D1 (drizzle, typed rows): every GET /v1/metrics counter for one team in one db.batch of reads.
// Conditional sums (`sum(x = 'a')`) have no builder operator, so they are `sql` expressions over typed columns.
import { and, asc, count, desc, eq, gte, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { auditLog } from "../../audit/store/tables";
import { eventDeadLetters } from "../../events/store/tables";
import { gateMetrics } from "../../learning/store/tables";
import { sessionEvents } from "../../memory/store/tables";
import { teamModes } from "../../policy/store/tables";
import { attemptSpend, teamAttempts } from "../../runs";
import { attempts, deadLetters } from "../../runs/store/tables";
import { approvalCountsQuery, countWhere, humanLatenciesQuery } from "./approval-queries";
import type { MetricsStore } from "./metrics-store-port";

const MAX_LATENCIES = 10_000;
const MAX_SESSIONS = 20_000;

/** the window's spend, gates by kind, approvals and human decision latencies */
function runQueries(db: DrizzleD1Database, teamId: string, since: number) {
  return [
    teamAttempts(db.select(attemptSpend).from(attempts).$dynamic(), teamId, gte(attempts.endedAt, since)),
    db
      .select({ kind: sql<string>`coalesce(${gateMetrics.kind}, 'unknown')`, n: count() })
      .from(gateMetrics)
      .where(and(eq(gateMetrics.teamId, teamId), gte(gateMetrics.openedAt, since)))
      .groupBy(gateMetrics.kind)
      .orderBy(asc(gateMetrics.kind)),
    approvalCountsQuery(db, teamId, since),
    humanLatenciesQuery(db, teamId, since, MAX_LATENCIES),
  ] as const;
}

/** order dead letters (open, created in the window) and the EVENTS dead-letter queue (count, most recent) */
function deadLetterQueries(db: DrizzleD1Database, teamId: string, since: number) {
  return [
    db
      .select({
        open: countWhere(sql`${deadLetters.resolvedAt} IS NULL`),
        created: countWhere(gte(deadLetters.createdAt, since)),
      })
      .from(deadLetters)
      .where(eq(deadLetters.teamId, teamId)),
    db
      .select({ n: count() })
      .from(eventDeadLetters)
      .where(and(eq(eventDeadLetters.teamId, teamId), gte(eventDeadLetters.receivedAt, since))),
    db
      .select({
        event_id: eventDeadLetters.eventId,
        type: eventDeadLetters.type,
        attempts: eventDeadLetters.attempts,
        received_at: eventDeadLetters.receivedAt,
      })
      .from(eventDeadLetters)
      .where(eq(eventDeadLetters.teamId, teamId))
      .orderBy(desc(eventDeadLetters.receivedAt), asc(eventDeadLetters.id))
      .limit(10),
  ] as const;
}

/** the policy side: the mode ceiling, automatic rollbacks and aborted learning in the window */
function policyQueries(db: DrizzleD1Database, teamId: string, since: number) {
  return [
    db.select({ ceiling: teamModes.ceiling }).from(teamModes).where(eq(teamModes.teamId, teamId)),
    db
      .select({ createdAt: auditLog.createdAt, metadata: auditLog.metadata })
      .from(auditLog)
      .where(and(eq(auditLog.teamId, teamId), eq(auditLog.action, "policy.rollback"), gte(auditLog.createdAt, since)))
      .orderBy(desc(auditLog.createdAt), asc(auditLog.id))
      .limit(50),
    db
      .select({ n: count() })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.teamId, teamId),
          eq(auditLog.action, "policy_memory.learning_aborted"),
          gte(auditLog.createdAt, since),
        ),
      ),
  ] as const;
}

/** session events from `historySince` on, oldest first (the ops-warden series) */
function sessionsQuery(db: DrizzleD1Database, teamId: string, historySince: number) {
  return db
    .select({
      id: sessionEvents.id,
      session_kind: sessionEvents.sessionKind,
      outcome: sessionEvents.outcome,
      need_fingerprint: sessionEvents.needFingerprint,
      route_id: sessionEvents.routeId,
      created_at: sessionEvents.createdAt,
    })
    .from(sessionEvents)
    .where(and(eq(sessionEvents.teamId, teamId), gte(sessionEvents.createdAt, historySince)))
    .orderBy(asc(sessionEvents.createdAt), asc(sessionEvents.id))
    .limit(MAX_SESSIONS);
}

export function createD1MetricsStore(db: DrizzleD1Database): MetricsStore {
  return {
    async teamMetrics(teamId, since, historySince) {
      const [
        tokens,
        gatesByKind,
        approvals,
        latencies,
        orderDeadLetters,
        [dlq],
        dlqRecent,
        [mode],
        rollbacks,
        [aborted],
        sessions,
      ] = await db.batch([
        ...runQueries(db, teamId, since),
        ...deadLetterQueries(db, teamId, since),
        ...policyQueries(db, teamId, since),
        sessionsQuery(db, teamId, historySince),
      ]);
      return {
        tokensIn: tokens[0]?.tokensIn ?? 0,
        tokensOut: tokens[0]?.tokensOut ?? 0,
        gatesByKind: Object.fromEntries(gatesByKind.map((r) => [r.kind, r.n])),
        autoApprovals: approvals[0]?.auto ?? 0,
        humanApprovals: approvals[0]?.human ?? 0,
        gateOutcomes: {
          approved: approvals[0]?.approved ?? 0,
          denied: approvals[0]?.denied ?? 0,
          timed_out: approvals[0]?.timed_out ?? 0,
          cancelled: approvals[0]?.cancelled ?? 0,
          superseded: approvals[0]?.superseded ?? 0,
          fallback_denied: approvals[0]?.fallback_denied ?? 0,
        },
        humanLatenciesMs: latencies.map((r) => r.latencyMs ?? 0),
        deadLettersOpen: orderDeadLetters[0]?.open ?? 0,
        deadLettersCreated: orderDeadLetters[0]?.created ?? 0,
        dlqCount: dlq?.n ?? 0,
        dlqRecent,
        sessions,
        ceiling: mode?.ceiling ?? "enforce",
        rollbacks: rollbacks.map((r) => ({
          at: r.createdAt,
          metadata: r.metadata && typeof r.metadata === "object" ? (r.metadata as Record<string, unknown>) : {},
        })),
        learningAborted: aborted?.n ?? 0,
      };
    },
  };
}
