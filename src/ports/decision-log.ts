// Port: the decision log off D1 — NDJSON objects per (team, hour) in R2, and the counters and manifest beside them.
import type { MemrlMode } from "../../contracts/memrl-policy";

/** One logged decision: the request as received plus what was decided, for replay and the rollback matrix. */
export type LoggedDecision = {
  decision_id: string;
  team_id: string;
  run_id: string | null;
  task_id: string | null;
  inputs: Record<string, unknown>;
  inputs_digest: string;
  profile_version: number;
  requested_mode: MemrlMode;
  effective_mode: MemrlMode;
  ceiling: MemrlMode;
  failure_class: string | null;
  attempt_bucket: string | null;
  rule_id: string;
  raw_action: string;
  selected_action: string;
  created_at: number;
};

export type DecisionCounts = {
  decisions: number;
  /** selected_action = escalate */
  escalations: number;
  /** rule_id = default.unknown_failure_class */
  unknownClass: number;
  /** rule_id = default.missing_metadata */
  missingMetadata: number;
};

/** The bucket side (DECISION_LOG): whole objects, written once per batch and never changed. */
export interface DecisionObjects {
  put(key: string, body: string): Promise<void>;
  /** null when the object does not exist */
  get(key: string): Promise<string | null>;
  /** keys under `prefix` that sort after `startAfter`, ascending, all pages */
  list(prefix: string, startAfter: string): Promise<string[]>;
}

/** One (team, hour) object of a flush and the counters it adds. */
export type CounterBatch = {
  teamId: string;
  hour: number;
  objectKey: string;
  counters: {
    failureClass: string;
    mode: string;
    action: string;
    decisions: number;
    unknownClass: number;
    missingMetadata: number;
  }[];
};

/** One written flush (a writer group or a queue batch): its id (from its decision ids) and its objects. */
export type DecisionFlush = { batchId: string; decisions: number; objects: CounterBatch[] };

/** The D1 side: counters per (team, hour, failure class, mode, action), the batch manifest, the outage counter. */
export interface DecisionCounterStore {
  /** adds the flush's counters unless its batch id is already in the manifest, and records it there (one D1 batch) */
  apply(flush: DecisionFlush, now: number): Promise<void>;
  /** the team's counts over whole hours from `fromHour` on */
  counts(teamId: string, fromHour: number): Promise<DecisionCounts>;
  /** teams with counters in the hour of `sinceMs` or later */
  teamsSince(sinceMs: number): Promise<string[]>;
  /** deletes manifest rows written before `before` (no redelivery can come that late); how many */
  pruneManifest(before: number): Promise<number>;
  /** counts one refused write in its hour */
  countOutage(hour: number, error: string, now: number): Promise<void>;
  /** refused writes per hour since `fromHour` */
  outages(fromHour: number): Promise<{ hour: number; failures: number; last_error: string }[]>;
}
