// D1 tables of the learning feature (drizzle): policy memory and its ledger, retry adjustments, staged task outcomes, failure signatures, gate metrics, applied event ids.

import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

export const policyMemoryEntries = sqliteTable(
  "policy_memory_entry",
  {
    entryId: text("entry_id").primaryKey(),
    teamId: text("team_id").notNull(),
    skillName: text("skill_name").notNull(),
    contextHash: text("context_hash").notNull(),
    successCount: integer("success_count").notNull().default(0),
    failureCount: integer("failure_count").notNull().default(0),
    avgCostUnits: real("avg_cost_units").notNull().default(0),
    avgSteps: real("avg_steps").notNull().default(0),
    baseWeight: real("base_weight").notNull().default(1),
    /** the last outcomes, newest last, for the circular-learning breaker */
    recentOutcomes: text("recent_outcomes", { mode: "json" }).$type<string[]>().notNull(),
    learningStopped: integer("learning_stopped", { mode: "boolean" }).notNull().default(false),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    lastUsed: integer("last_used").notNull(),
    createdAt: createdAt(),
    /** seq of the ledger row that produced this state (the ledger/state consistency check compares them) */
    ledgerSeq: integer("ledger_seq").notNull().default(0),
  },
  (t) => [
    uniqueIndex("policy_memory_entry_team_skill_ctx").on(t.teamId, t.skillName, t.contextHash),
    index("policy_memory_entry_archive").on(t.archived, t.lastUsed),
  ],
);

/** append-only: one row per intended change, written before the entry changes */
export const policyMemoryLedger = sqliteTable(
  "policy_memory_ledger",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    entryId: text("entry_id").notNull(),
    skillName: text("skill_name").notNull(),
    change: text("change", { mode: "json" }).notNull(),
    createdAt: createdAt(),
    /** per entry, 1, 2, 3…: the entry's ledger_seq after this change */
    seq: integer("seq").notNull().default(0),
  },
  (t) => [
    // W4: one change per skill (or retry class) per run, per team (run ids from /v1/events are caller-chosen)
    uniqueIndex("policy_memory_ledger_team_run_skill").on(t.teamId, t.runId, t.skillName),
    index("policy_memory_ledger_entry_seq").on(t.entryId, t.seq),
  ],
);

export const retryAdjustments = sqliteTable(
  "retry_adjustment",
  {
    teamId: text("team_id").notNull(),
    failureClass: text("failure_class").notNull(),
    backoffMultiplier: real("backoff_multiplier").notNull().default(1),
    maxAttemptsOverride: integer("max_attempts_override"),
    updatedAt: integer("updated_at").notNull(),
    /** tasks of this class that succeeded after a retry */
    recoveredCount: integer("recovered_count").notNull().default(0),
    /** tasks of this class that ended failed after their attempts */
    exhaustedCount: integer("exhausted_count").notNull().default(0),
    /** sum of attempts of the recovered tasks (their mean is attempts-to-recovery) */
    recoveryAttemptsSum: integer("recovery_attempts_sum").notNull().default(0),
    ledgerSeq: integer("ledger_seq").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.failureClass] })],
);

/** task outcomes of a run, staged from task.* events until its run.completed is learned (YARLI-style agents) */
export const runTaskOutcomes = sqliteTable(
  "run_task_outcome",
  {
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    taskId: text("task_id").notNull(),
    skill: text("skill"),
    /** the event's query type, hashed when the run is learned */
    context: text("context"),
    /** 1 once a task.completed arrived (order-independent: max) */
    succeeded: integer("succeeded").notNull().default(0),
    failures: integer("failures").notNull().default(0),
    blocks: integer("blocks").notNull().default(0),
    firstFailureClass: text("first_failure_class"),
    lastFailureClass: text("last_failure_class"),
    attempts: integer("attempts").notNull().default(0),
    costUnits: real("cost_units").notNull().default(0),
    steps: integer("steps").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.runId, t.taskId] }), index("run_task_outcome_updated").on(t.updatedAt)],
);

/** how often a failure signature (task key + reason + exit-code bucket) recurred, for the governance-memory rule */
export const failureSignatures = sqliteTable(
  "failure_signature",
  {
    teamId: text("team_id").notNull(),
    signature: text("signature").notNull(),
    count: integer("count").notNull().default(0),
    taskKey: text("task_key"),
    reason: text("reason"),
    exitCodeBucket: text("exit_code_bucket"),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.signature] })],
);

/** gates as seen on the EVENTS queue (gate.opened / gate.decided): kind and human latency for GET /v1/metrics */
export const gateMetrics = sqliteTable(
  "gate_metric",
  {
    gateId: text("gate_id").notNull(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    policyKey: text("policy_key"),
    /** auto | soft | hard | deny */
    kind: text("kind"),
    openedAt: integer("opened_at"),
    decidedAt: integer("decided_at"),
    decision: text("decision"),
    decidedBy: text("decided_by"),
    latencyMs: integer("latency_ms"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.gateId] }), index("gate_metric_team_opened").on(t.teamId, t.openedAt)],
);

/** idempotency keys of queue messages already applied */
export const processedEvents = sqliteTable("processed_event", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  processedAt: integer("processed_at").notNull(),
});
