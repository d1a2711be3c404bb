// Use-case: a team object's alarm moves its decision journal into the decision log, then publishes its escalations.
import { canonicalJson, sha256Hex } from "../../lib/digest";
import type { LoggedDecision } from "../../ports/decision-log";
import type { EventBus } from "../../ports/event-bus";
import { appendDecisions, type DecisionLogNeeds } from "./decision-log";

/** What a flush needs: the log's writer (R2 objects, D1 counters and manifest) and EVENTS. */
export type JournalFlushNeeds = Pick<DecisionLogNeeds, "decisionObjects" | "decisionCounters" | "clock"> & {
  events: EventBus;
};

/** The journal as a flush sees it (the team object's DecisionJournalRows). */
export interface JournalRows {
  /** the next batch, claimed durably before any write (the same batch again while one is unfinished); null: empty */
  claimFlush(limit: number): { batch: number; decisions: LoggedDecision[] } | null;
  /** the batch is logged: its rows leave the journal */
  finishFlush(batch: number, now: number): number;
  pending(): number;
}

/** One flush's outcome: decisions logged, and whether rows remain (the alarm re-arms at once). */
export type JournalFlushOutcome = { flushed: number; more: boolean };

/**
 * Writes one claimed batch to the decision log, then publishes the `policy.decided` events of its escalations (their
 * one subscriber writes an escalation's audit row; a retry or an escape is in the log and its counters already, so
 * EVENTS carries one message per escalation, not one per decision), then deletes its rows. The order makes a kill
 * anywhere harmless: before the log write nothing is written and the rows stay; between the log write and the delete
 * the same batch is written again — the same objects with the same bytes, counters kept from a second count by the
 * manifest — and its events published again (their subscribers are idempotent by decision id). A failure rejects and
 * leaves the rows for the next try.
 */
export async function flushJournal(
  rows: JournalRows,
  needs: JournalFlushNeeds,
  limit: number,
): Promise<JournalFlushOutcome> {
  const claim = rows.claimFlush(limit);
  if (!claim) return { flushed: 0, more: false };
  const decisions = await Promise.all(
    claim.decisions.map(async (d) => ({ ...d, inputs_digest: await sha256Hex(canonicalJson(d.inputs)) })),
  );
  await appendDecisions(decisions, needs);
  await needs.events.publish(
    claim.decisions
      .filter((d) => d.selected_action === "escalate")
      .map((d) => ({
        event_id: d.decision_id,
        type: "policy.decided" as const,
        team_id: d.team_id,
        occurred_at: d.created_at,
        decision: d,
      })),
  );
  const flushed = rows.finishFlush(claim.batch, needs.clock.now());
  return { flushed, more: rows.pending() > 0 };
}
