// test/decision-log.ts in Node: the team objects' decision journals (VectorIndexDO on the Durable Object stand-in)
// flushed into the decision log's bucket stand-in, and the decisions that log holds.
import type { VectorIndexDO } from "../../durable-objects/vector-index-do";
import { makeJournalFlushNeeds } from "../../src/deps";
import { decodeDecisions, teamPrefix } from "../../src/features/policy/decision-log-layout";
import type { DecisionObjects, LoggedDecision } from "../../src/ports/decision-log";
import { runInDurableObject } from "../fakes/durable-objects";
import type { NodeObjects } from "./objects";

/** The journal helpers of a Node env's team objects, flushing into `decisionLog` (the decision log's bucket stand-in). */
export function nodeDecisionLog(w: { env: Env; objects: NodeObjects }, decisionLog: DecisionObjects) {
  const { VECTOR_INDEX } = w.objects;
  /** The team object of `team` (VECTOR_INDEX, idFromName(team_id)): memory rows and decision journal. */
  const teamObject = (team: string) => VECTOR_INDEX.get(VECTOR_INDEX.idFromName(team));
  /** The decisions waiting in the team's journal, oldest first. */
  const journalRows = (team: string): Promise<LoggedDecision[]> =>
    runInDurableObject(teamObject(team), (o: VectorIndexDO) => o.journalRows());
  /** Flushes (the work of the object's alarm) until the team's journal is empty, into `decisionLog`. */
  async function flushJournal(team: string): Promise<void> {
    const needs = { ...makeJournalFlushNeeds(w.env), decisionObjects: decisionLog };
    for (let i = 0; i < 50 && (await journalRows(team)).length > 0; i++)
      await runInDurableObject(teamObject(team), (o: VectorIndexDO) => o.flushDecisions(needs));
    const left = (await journalRows(team)).length;
    if (left > 0) throw new Error(`team ${team}: ${left} decisions still in the journal after 50 flushes`);
  }
  /** Every decision the team's log objects hold (duplicates kept: a test counts them). */
  async function decisionsInLog(team: string): Promise<LoggedDecision[]> {
    const out: LoggedDecision[] = [];
    for (const key of await decisionLog.list(teamPrefix(team), "")) {
      const body = await decisionLog.get(key);
      if (body !== null) out.push(...decodeDecisions(body));
    }
    return out;
  }
  return { teamObject, journalRows, flushJournal, decisionsInLog };
}
