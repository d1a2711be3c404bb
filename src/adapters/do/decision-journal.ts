// DecisionJournal over the team objects (VECTOR_INDEX, idFromName(team_id)): one RPC per append.
import type { VectorIndexDO } from "../../../durable-objects/vector-index-do";
import type { DecisionJournal } from "../../ports/decision-journal";

/** The journal of each team in its team object; the name is the team id, which comes from a verified token only. */
export function createTeamDecisionJournal(ns: DurableObjectNamespace<VectorIndexDO>): DecisionJournal {
  return {
    async append(teamId, decisions) {
      if (!decisions.length) return;
      const stub = ns.get(ns.idFromName(teamId));
      const outcome = await stub.journalAppend(teamId, [...decisions]);
      if (!outcome.ok) throw new Error(`decision journal append: ${outcome.error}`);
    },
  };
}
