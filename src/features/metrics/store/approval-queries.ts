// The one definition of "decided by a human" in D1 reads: approval counts (per outcome too) and the human decision
// latencies that GET /v1/metrics (metrics-store.ts) and the team overview page (overview-store.ts) both show.
import { and, asc, eq, gte, inArray, isNotNull, isNull, not, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { GATE_OUTCOMES, HUMAN_CHANNELS, OUTAGE_APPROVER, STOP_ABORT_REASON } from "../../../lib/gate-outcome";
import { gateMetrics } from "../../learning/store/tables";
import { approvalEvents } from "../../runs/store/tables";

/** approvers that are not people: the policy, a soft gate's timer, the system, the approval-outage fallback */
const AUTOMATIC_APPROVERS = ["policy", "timer", "system", OUTAGE_APPROVER];

/** coalesce(sum(<condition>), 0): how many rows meet the condition (no builder operator for a conditional sum) */
export const countWhere = (condition: SQL | undefined) => sql<number>`coalesce(sum(${condition}), 0)`;

/**
 * An approval_event row that is a human decision (docs/glossary.md, "gate outcome"): approved or denied through
 * slack | api | cli | web. Rows from before outcomes were recorded fall back to "not an automatic decider and not
 * aborted by a run stop".
 */
const humanDecision: SQL = or(
  and(
    isNotNull(approvalEvents.outcome),
    inArray(approvalEvents.outcome, ["approved", "denied"]),
    inArray(approvalEvents.channel, [...HUMAN_CHANNELS]),
  ),
  and(
    isNull(approvalEvents.outcome),
    notInArray(approvalEvents.approver, AUTOMATIC_APPROVERS),
    sql`coalesce(${approvalEvents.reason}, '') <> ${STOP_ABORT_REASON}`,
  ),
) as SQL;

/** select fields counting rows per outcome (rows without an outcome count in none). The outcome names are our own
 * constants, written as SQL literals: bound as parameters, every bucket but the first read 0 in the D1 batch
 * (outcomes.app.unit.test.ts caught it). */
const outcomeCountFields = Object.fromEntries(
  GATE_OUTCOMES.map((o) => [o, countWhere(sql`${approvalEvents.outcome} = ${sql.raw(`'${o}'`)}`)]),
) as Record<(typeof GATE_OUTCOMES)[number], SQL<number>>;

/** the gate (by team and gate id columns) has a decision row that is not a human decision */
const decidedByNoHuman = (teamId: SQLiteColumn, gateId: SQLiteColumn): SQL =>
  sql`exists (select 1 from ${approvalEvents} where ${approvalEvents.teamId} = ${teamId} and ${approvalEvents.gateId} = ${gateId} and not (${humanDecision}))`;

/**
 * A team's approval events since `since`: `auto` (auto_allow, or allowed by the policy), `human` (approved or denied
 * by a person; a stop, a timer, a supersede or an outage fallback is nobody's decision) and one count per outcome.
 */
export function approvalCountsQuery(db: DrizzleD1Database, teamId: string, since: number) {
  return db
    .select({
      auto: countWhere(
        sql`${approvalEvents.decision} = 'auto_allow' OR (${approvalEvents.decision} = 'allow' AND ${approvalEvents.approver} = 'policy')`,
      ),
      human: countWhere(humanDecision),
      ...outcomeCountFields,
    })
    .from(approvalEvents)
    .where(and(eq(approvalEvents.teamId, teamId), gte(approvalEvents.createdAt, since)));
}

/** How long people took to decide the team's gates decided since `since`, shortest first, at most `limit`. */
export function humanLatenciesQuery(db: DrizzleD1Database, teamId: string, since: number, limit: number) {
  return db
    .select({ latencyMs: gateMetrics.latencyMs })
    .from(gateMetrics)
    .where(
      and(
        eq(gateMetrics.teamId, teamId),
        gte(gateMetrics.decidedAt, since),
        isNotNull(gateMetrics.latencyMs),
        isNotNull(gateMetrics.decidedBy),
        notInArray(gateMetrics.decidedBy, AUTOMATIC_APPROVERS),
        not(decidedByNoHuman(gateMetrics.teamId, gateMetrics.gateId)),
      ),
    )
    .orderBy(asc(gateMetrics.latencyMs))
    .limit(limit);
}
