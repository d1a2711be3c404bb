// Writes decisions into the decision log: one NDJSON object per (team, hour) group in R2, then its counters and
// manifest row in one D1 batch — from the team object's journal flush, the one writer (journal-flush.ts: a failed
// flush keeps its rows and retries by alarm; each R2 refusal is counted as an outage).

import { log } from "../../lib/log";
import type { Clock } from "../../ports/clock";
import type { CounterBatch, DecisionCounterStore, DecisionFlush, DecisionObjects } from "../../ports/decision-log";
import { batchIdOf, countersOf, encodeDecisions, groupByTeamHour, hourOf, objectKey } from "./decision-log-layout";
import type { LoggedDecision, PolicyStore } from "./store/policy-store-port";

/** What the log's writer and reader need: the bucket, the counters, a clock, and D1's rows from before the move. */
export type DecisionLogNeeds = {
  decisionObjects: DecisionObjects;
  decisionCounters: DecisionCounterStore;
  clock: Clock;
  /** policy_decision: decisions logged in D1 before issue 27 (read only; nothing writes it any more) */
  policyStore: Pick<PolicyStore, "loggedDecisions">;
};

/**
 * Appends one flush of decisions to the log. Every (team, hour) group is one object whose key carries the batch id of
 * its decision ids, so a redelivered group rewrites the same bytes to the same key; the flush's manifest row (its id
 * from all its decision ids) keeps its counters from being added twice. R2 first, counters after: a failure anywhere
 * rejects (the caller retries the whole flush) and leaves at most objects a retry overwrites with the same bytes. An
 * R2 refusal is counted in decision_log_outage.
 */
export async function appendDecisions(
  decisions: readonly LoggedDecision[],
  deps: Pick<DecisionLogNeeds, "decisionObjects" | "decisionCounters" | "clock">,
): Promise<DecisionFlush> {
  const now = deps.clock.now();
  const written = await Promise.all(
    groupByTeamHour(decisions).map(async (g) => {
      const key = objectKey(g.teamId, g.hour, await batchIdOf(g.decisions.map((d) => d.decision_id)));
      const object: CounterBatch = {
        teamId: g.teamId,
        hour: g.hour,
        objectKey: key,
        counters: countersOf(g.decisions),
      };
      return { object, body: encodeDecisions(g.decisions) };
    }),
  );
  try {
    await Promise.all(written.map((w) => deps.decisionObjects.put(w.object.objectKey, w.body)));
  } catch (e) {
    await deps.decisionCounters.countOutage(hourOf(now), String(e), now).catch((counting) => {
      log.error("decision log outage not counted", { error: String(counting) });
    });
    throw e;
  }
  const objects = written.map((w) => w.object);
  const flush: DecisionFlush = {
    batchId: await batchIdOf(decisions.map((d) => d.decision_id)),
    decisions: objects.reduce((n, o) => n + o.counters.reduce((m, c) => m + c.decisions, 0), 0),
    objects,
  };
  await deps.decisionCounters.apply(flush, now);
  return flush;
}
