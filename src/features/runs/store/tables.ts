// D1 tables of the runs feature (drizzle): the queryable copy of the run objects' outboxes — runs, orders, attempts, gates, approvals, dead letters.

import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

export const runs = sqliteTable(
  "runs",
  {
    runId: text("run_id").primaryKey(),
    teamId: text("team_id").notNull(),
    goal: text("goal").notNull(),
    status: text("status").notNull(),
    /** "control" for the team's policy-deploy run, "agent" otherwise */
    kind: text("kind").notNull().default("agent"),
    slackChannelId: text("slack_channel_id"),
    slackThreadTs: text("slack_thread_ts"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("runs_team_created").on(t.teamId, t.createdAt),
    index("runs_team_status_created").on(t.teamId, t.status, t.createdAt),
    // the learning reconciliation reads recently finished runs across teams
    index("runs_status_updated").on(t.status, t.updatedAt),
  ],
);

export const workOrders = sqliteTable(
  "work_order",
  {
    orderId: text("order_id").notNull(),
    runId: text("run_id").notNull(),
    teamId: text("team_id").notNull(),
    taskId: text("task_id").notNull(),
    goal: text("goal").notNull(),
    status: text("status").notNull(),
    body: text("body", { mode: "json" }).notNull(),
    /** the order's optional skill (WorkOrder v1 `skill`), matched by POST /v1/orders/lease-next */
    skill: text("skill"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.orderId] }),
    index("work_order_team_status_created").on(t.teamId, t.status, t.createdAt),
    // `/warden status <task_id>`: a task's orders within the team
    index("work_order_team_task").on(t.teamId, t.taskId),
  ],
);

/** the team-wide gate index (GET /v1/gates): one row per gate, status updated as it is decided */
export const gates = sqliteTable(
  "gate",
  {
    gateId: text("gate_id").primaryKey(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    opId: text("op_id").notNull(),
    policyKey: text("policy_key").notNull(),
    /** auto | soft | hard | deny */
    kind: text("kind").notNull(),
    /** pending | approved | auto_allowed | denied | aborted | skipped */
    status: text("status").notNull(),
    openedBy: text("opened_by").notNull(),
    openedAt: integer("opened_at").notNull(),
    deadlineAt: integer("deadline_at"),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    /** approved | denied | timed_out | cancelled | superseded | fallback_denied; null while pending */
    outcome: text("outcome"),
    updatedAt: integer("updated_at").notNull(),
    /** who acknowledged the open gate (POST /v1/gates/:gate_id/ack) and when; the first acknowledgement stays */
    ackedBy: text("acked_by"),
    ackedAt: integer("acked_at"),
  },
  (t) => [
    index("gate_team_status_opened").on(t.teamId, t.status, t.openedAt),
    // the SLA breach sweep reads every team's open gates, oldest first
    index("gate_status_opened").on(t.status, t.openedAt),
  ],
);

export const attempts = sqliteTable(
  "attempt",
  {
    attemptId: text("attempt_id").primaryKey(),
    runId: text("run_id").notNull(),
    orderId: text("order_id").notNull(),
    opId: text("op_id").notNull(),
    outcome: text("outcome").notNull(),
    failureClass: text("failure_class"),
    next: text("next").notNull(),
    tokensIn: integer("tokens_in").notNull().default(0),
    tokensOut: integer("tokens_out").notNull().default(0),
    /** the subject that held the lease (the agent that did the work); null on rows before it was recorded */
    holder: text("holder"),
    /** the lease holder token's persona_id (spend per persona on the overview) */
    personaId: text("persona_id"),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at").notNull(),
  },
  (t) => [uniqueIndex("attempt_run_op").on(t.runId, t.opId), index("attempt_run").on(t.runId)],
);

/** append-only (triggers in the migration refuse UPDATE and DELETE, except the retention sweep) */
export const approvalEvents = sqliteTable(
  "approval_event",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    opId: text("op_id").notNull(),
    gateId: text("gate_id").notNull(),
    policyKey: text("policy_key").notNull(),
    /** allow | auto_allow | deny | abort | skip | retry */
    decision: text("decision").notNull(),
    approver: text("approver").notNull(),
    reason: text("reason"),
    note: text("note"),
    /** Slack payload id or API op id, so duplicates change nothing */
    dedupeKey: text("dedupe_key"),
    /** approved | denied | timed_out | cancelled | superseded | fallback_denied (null on rows before outcomes) */
    outcome: text("outcome"),
    /** slack | api | cli | web | timer | rollback | outage_fallback | policy (null on rows before channels) */
    channel: text("channel"),
    createdAt: createdAt(),
  },
  (t) => [
    index("approval_event_run_op").on(t.runId, t.opId),
    uniqueIndex("approval_event_dedupe").on(t.dedupeKey),
    index("approval_event_team_created").on(t.teamId, t.createdAt),
  ],
);

export const deadLetters = sqliteTable(
  "dead_letter",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    opId: text("op_id").notNull(),
    reasonCode: text("reason_code").notNull(),
    payload: text("payload", { mode: "json" }),
    createdAt: createdAt(),
    resolvedAt: integer("resolved_at"),
    resolver: text("resolver"),
  },
  (t) => [index("dead_letter_run").on(t.runId)],
);
