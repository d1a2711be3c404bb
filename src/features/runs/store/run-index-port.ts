// Port: team-wide reads of the D1 run record (run list, open gates, gate lookup, orders available to lease).

export type RunListRow = {
  run_id: string;
  goal: string;
  status: string;
  kind: string;
  created_at: number;
  updated_at: number;
};

/** who acknowledged an open gate, and when (the on-call's "I am on it"; the escalation pings stop until its resolve SLA
 * is due), with the gate facts that SLA is measured on */
export type GateAck = { acked_by: string; acked_at: number; opened_at: number; policy_key: string; kind: string };

export type GateIndexRow = {
  gate_id: string;
  run_id: string;
  op_id: string;
  policy_key: string;
  kind: string;
  status: string;
  opened_by: string;
  opened_at: number;
  deadline_at: number | null;
  decided_by: string | null;
  decided_at: number | null;
  /** how the gate ended (src/features/gates/outcome.ts); null while pending */
  outcome: string | null;
};

export type AvailableOrderRow = { run_id: string; order_id: string; task_id: string; skill: string | null };

/** A position in a list ordered by (created_at, id), oldest first or newest first. */
export type ListCursor = { at: number; id: string };

export interface RunIndex {
  /** the team's runs, newest first, after `cursor`; `status` filters when given */
  listRuns(
    teamId: string,
    q: { status?: string; kind?: string; cursor?: ListCursor; limit: number },
  ): Promise<RunListRow[]>;
  /** the team's gates with this status, oldest first */
  listGates(teamId: string, q: { status: string; limit: number }): Promise<GateIndexRow[]>;
  /** one gate of the team by id, or null */
  gate(teamId: string, gateId: string): Promise<GateIndexRow | null>;
  /** the acknowledgements of these gates of the team (gates never acknowledged are absent) */
  gateAcks(teamId: string, gateIds: readonly string[]): Promise<Map<string, GateAck>>;
  /** the team's orders a worker may try to lease (QUEUED or RETRY_WAIT in a PENDING or RUNNING run), oldest first;
   * with `skills`, only orders without a skill or with one of them */
  availableOrders(
    teamId: string,
    q: { skills?: string[]; runId?: string; taskId?: string; limit: number },
  ): Promise<AvailableOrderRow[]>;
  /** the team's orders of one task, newest first (`/warden status <task_id>` finds its run) */
  taskOrders(teamId: string, taskId: string, limit: number): Promise<(AvailableOrderRow & { status: string })[]>;
}
