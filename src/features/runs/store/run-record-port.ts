// Port: the durable, queryable D1 record of runs (index, work orders, attempts, approval events, dead letters, audit).

import type { GateIndexRow } from "./run-index-port";

/** One approval_event row: a decision on a gate (or an approval that arrived before it). */
export type ApprovalRow = {
  id: string;
  team_id: string;
  run_id: string;
  op_id: string;
  gate_id: string;
  policy_key: string;
  decision: string;
  approver: string;
  reason: string | null;
  note: string | null;
  dedupe_key: string;
  created_at: number;
  /** approved | denied | timed_out | cancelled | superseded | fallback_denied (src/features/gates/outcome.ts) */
  outcome: string;
  /** slack | api | cli | web | timer | rollback | outage_fallback | policy */
  channel: string;
};

/** Rows for the D1 record; one command's rows are written in one db.batch(). */
export type RecordOp =
  | {
      t: "run";
      row: {
        run_id: string;
        team_id: string;
        goal: string;
        status: string;
        kind: string;
        created_at: number;
        updated_at: number;
      };
    }
  | {
      t: "order";
      row: {
        order_id: string;
        run_id: string;
        team_id: string;
        task_id: string;
        goal: string;
        status: string;
        body: unknown;
        skill: string | null;
        created_at: number;
        updated_at: number;
      };
    }
  | {
      t: "gate";
      row: GateIndexRow & { team_id: string; updated_at: number };
    }
  | {
      t: "attempt";
      row: {
        attempt_id: string;
        run_id: string;
        order_id: string;
        op_id: string;
        outcome: string;
        failure_class: string | null;
        next: string;
        tokens_in: number;
        tokens_out: number;
        /** the lease holder's subject */
        holder: string | null;
        /** the lease holder token's persona_id */
        persona_id: string | null;
        started_at: number;
        ended_at: number;
      };
    }
  | {
      t: "approval";
      row: ApprovalRow;
    }
  | {
      t: "dead_letter";
      row: {
        id: string;
        team_id: string;
        run_id: string;
        op_id: string;
        reason_code: string;
        payload: unknown;
        created_at: number;
      };
    }
  | { t: "dead_letter_resolved"; id: string; resolved_at: number; resolver: string }
  | {
      t: "audit";
      row: {
        id: string;
        team_id: string;
        actor: string;
        action: string;
        subject_type: string;
        subject_id: string;
        metadata: unknown;
        created_at: number;
      };
    };

export type RetryAdjustmentRow = {
  failureClass: string;
  backoffMultiplier: number;
  maxAttemptsOverride: number | null;
};

export interface RunRecordStore {
  /** all rows in one atomic db.batch(); idempotent (deterministic ids, guarded updates), so a retry is safe */
  write(ops: RecordOp[]): Promise<void>;
  /**
   * Records the first acknowledgement of a pending gate (a later one changes nothing) and answers the gate with its
   * acknowledgement; null when the team has no such gate.
   */
  ackGate(
    teamId: string,
    gateId: string,
    by: string,
    now: number,
  ): Promise<(GateIndexRow & { acked_by: string | null; acked_at: number | null }) | null>;
  /** the team's policy-memory retry adjustments, for the start-of-run snapshot */
  retryAdjustments(teamId: string): Promise<RetryAdjustmentRow[]>;
}
