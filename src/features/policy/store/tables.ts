// D1 tables of the policy feature (drizzle): profiles, the old decision table, decision-log counters and manifest, mode ceilings.

import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

export const policyProfiles = sqliteTable(
  "policy_profile",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    /** pending | active | retired */
    status: text("status").notNull(),
    body: text("body", { mode: "json" }).notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    activatedAt: integer("activated_at"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] }), index("policy_profile_team_status").on(t.teamId, t.status)],
);

export const policyDecisions = sqliteTable(
  "policy_decision",
  {
    decisionId: text("decision_id").primaryKey(),
    teamId: text("team_id").notNull(),
    runId: text("run_id"),
    taskId: text("task_id"),
    inputsDigest: text("inputs_digest").notNull(),
    /** the request as received, so replay can re-evaluate it */
    inputs: text("inputs", { mode: "json" }).notNull(),
    profileVersion: integer("profile_version").notNull(),
    requestedMode: text("requested_mode").notNull(),
    effectiveMode: text("effective_mode").notNull(),
    failureClass: text("failure_class"),
    attemptBucket: text("attempt_bucket"),
    ruleId: text("rule_id").notNull(),
    rawAction: text("raw_action").notNull(),
    selectedAction: text("selected_action").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("policy_decision_team_created").on(t.teamId, t.createdAt),
    // the rollback sweep finds the teams with recent decisions
    index("policy_decision_created").on(t.createdAt),
  ],
);

/**
 * The decision log's counters (issue 27): one row per (team, hour, failure class, effective mode, selected action),
 * upserted once per written batch; the decisions themselves are NDJSON objects in the DECISION_LOG R2 bucket.
 * `failure_class` is '' for a decision without one (a primary key column cannot be NULL-distinct).
 */
export const decisionCounters = sqliteTable(
  "decision_counter",
  {
    teamId: text("team_id").notNull(),
    /** start of the UTC hour, epoch ms */
    hour: integer("hour").notNull(),
    failureClass: text("failure_class").notNull(),
    mode: text("mode").notNull(),
    action: text("action").notNull(),
    decisions: integer("decisions").notNull(),
    /** decided by default.unknown_failure_class / default.missing_metadata (the metrics' two rule ratios) */
    unknownClass: integer("unknown_class").notNull(),
    missingMetadata: integer("missing_metadata").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.hour, t.failureClass, t.mode, t.action] }),
    // the rollback sweep finds the teams with recent decisions
    index("decision_counter_hour").on(t.hour),
  ],
);

/**
 * The decision log's manifest: one row per written flush (a writer group or a queue batch, all its teams and hours),
 * so a redelivered flush adds its counters once. Only needed while a redelivery can still come (the queue's retention).
 */
export const decisionLogBatches = sqliteTable("decision_log_batch", {
  batchId: text("batch_id").primaryKey(),
  decisions: integer("decisions").notNull(),
  objects: integer("objects").notNull(),
  writtenAt: integer("written_at").notNull(),
});

/** R2 refusals of decision-log writes per UTC hour (the outage counter; each refused batch retries via EVENTS). */
export const decisionLogOutages = sqliteTable("decision_log_outage", {
  hour: integer("hour").primaryKey(),
  failures: integer("failures").notNull(),
  lastError: text("last_error").notNull(),
  lastAt: integer("last_at").notNull(),
});

export const teamModes = sqliteTable("team_mode", {
  teamId: text("team_id").primaryKey(),
  /** off | observe | enforce */
  ceiling: text("ceiling").notNull(),
  reason: text("reason").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** An admin's request to set a team's mode ceiling; applied when its policy_deploy gate is approved. */
export const modeCeilingRequests = sqliteTable(
  "mode_ceiling_request",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    ceiling: text("ceiling").notNull(),
    /** pending | applied */
    status: text("status").notNull(),
    requestedBy: text("requested_by").notNull(),
    createdAt: createdAt(),
    appliedAt: integer("applied_at"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] })],
);
