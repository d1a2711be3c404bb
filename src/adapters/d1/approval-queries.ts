// The one definition of "approved by a human" in D1 reads: the approval counts and the human decision latencies that
// GET /v1/metrics (metrics-store.ts) and the team overview page (overview-store.ts) both show.
import { and, asc, eq, gte, isNotNull, notExists, notInArray, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { STOP_ABORT_REASON } from "../../ports/run-record";
import { approvalEvents, gateMetrics } from "./schema";

/** approvers that are not people: the policy, a soft gate's timer, the system */
const AUTOMATIC_APPROVERS = ["policy", "timer", "system"];

/** coalesce(sum(<condition>), 0): how many rows meet the condition (no builder operator for a conditional sum) */
export const countWhere = (condition: SQL | undefined) => sql<number>`coalesce(sum(${condition}), 0)`;

/**
 * A team's approval events since `since`: `auto` (auto_allow, or allowed by the policy) and `human` (decided by a
 * person). A gate aborted by stopping its run was decided by nobody: not a human approval.
 */
export function approvalCountsQuery(db: DrizzleD1Database, teamId: string, since: number) {
  return db
    .select({
      auto: countWhere(
        sql`${approvalEvents.decision} = 'auto_allow' OR (${approvalEvents.decision} = 'allow' AND ${approvalEvents.approver} = 'policy')`,
      ),
      human: countWhere(
        and(
          notInArray(approvalEvents.approver, AUTOMATIC_APPROVERS),
          sql`coalesce(${approvalEvents.reason}, '') <> ${STOP_ABORT_REASON}`,
        ),
      ),
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
        notExists(
          db
            .select({ one: sql`1` })
            .from(approvalEvents)
            .where(
              and(
                eq(approvalEvents.teamId, gateMetrics.teamId),
                eq(approvalEvents.gateId, gateMetrics.gateId),
                eq(approvalEvents.reason, STOP_ABORT_REASON),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(gateMetrics.latencyMs))
    .limit(limit);
}
