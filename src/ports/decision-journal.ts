// Port: the team's decision journal — decide's durable hand-off to the decision log (the team object's SQLite).
import type { LoggedDecision } from "./decision-log";

export interface DecisionJournal {
  /**
   * Appends the team's decisions; durable when it resolves (the team object's alarm writes them to the decision log).
   * An id journaled or logged already is skipped. Rejects when the object refused: nothing was acknowledged.
   */
  append(teamId: string, decisions: readonly LoggedDecision[]): Promise<void>;
}
