// Port: team-wide reads of the dead letters the run objects project into D1, each with its review gate's status.

export type DeadLetterStatus = "open" | "resolved" | "all";

export type DeadLetterRow = {
  dead_letter_id: string;
  run_id: string;
  op_id: string;
  reason_code: string;
  /** the order, task, failure class, attempts and goal the run object recorded with it */
  payload: Record<string, unknown> | null;
  created_at: number;
  resolved_at: number | null;
  resolver: string | null;
  /** the review gate of the same run and op_id under `reviewKey`, when one was opened */
  review: { gate_id: string; status: string } | null;
};

export type DeadLetterQuery = {
  status: DeadLetterStatus;
  /** a reason code or a failure class (a wrong_value dead letter's reason code may be another, its class is not) */
  reason?: string;
  /** created at or after (ms) */
  since?: number;
  runId?: string;
  limit: number;
  /** the policy key of the review gate to join (the feature's vocabulary, not the adapter's) */
  reviewKey: string;
};

export interface DeadLetterIndex {
  /** the team's dead letters matching `q`, oldest first */
  list(teamId: string, q: DeadLetterQuery): Promise<DeadLetterRow[]>;
  /** one dead letter of the team, or null */
  get(teamId: string, id: string, reviewKey: string): Promise<DeadLetterRow | null>;
}
