// SQL over approval_event shared by the metrics and overview reads: what counts as a human decision, and outcome counts.
import { and, inArray, isNotNull, isNull, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { GATE_OUTCOMES, HUMAN_CHANNELS, OUTAGE_APPROVER } from "../../ports/gate-outcome";
import { STOP_ABORT_REASON } from "../../ports/run-record";
import { approvalEvents } from "./schema";

/** deciders that were Warden itself on rows written before approval_event.outcome existed */
const AUTOMATIC_APPROVERS = ["policy", "timer", "system", OUTAGE_APPROVER];

/**
 * An approval_event row that is a human decision (docs/glossary.md, "gate outcome"): approved or denied
 * through slack | api | cli | web. Rows from before outcomes were recorded fall back to "not an automatic decider and
 * not aborted by a run stop".
 */
export const humanDecision: SQL = or(
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

/** coalesce(sum(<condition>), 0): how many rows meet the condition */
export const countWhere = (condition: SQL | undefined) => sql<number>`coalesce(sum(${condition}), 0)`;

/** select fields counting rows per outcome (rows without an outcome count in none). The outcome names are our own
 * constants, written as SQL literals: bound as parameters, every bucket but the first read 0 in the D1 batch
 * (outcomes.test.ts caught it). */
export const outcomeCountFields = Object.fromEntries(
  GATE_OUTCOMES.map((o) => [o, countWhere(sql`${approvalEvents.outcome} = ${sql.raw(`'${o}'`)}`)]),
) as Record<(typeof GATE_OUTCOMES)[number], SQL<number>>;

/** the gate (by team and gate id columns) has a decision row that is not a human decision */
export const decidedByNoHuman = (teamId: SQLiteColumn, gateId: SQLiteColumn): SQL =>
  sql`exists (select 1 from ${approvalEvents} where ${approvalEvents.teamId} = ${teamId} and ${approvalEvents.gateId} = ${gateId} and not (${humanDecision}))`;
