// D1 tables (drizzle): the durable, queryable record of runs, policy, gates, memory and learning.

import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

// ---- runs, orders, attempts, gates ---------------------------------------------------------

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

// ---- policy -------------------------------------------------------------------------------

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

// ---- memory -------------------------------------------------------------------------------

export const memDocs = sqliteTable(
  "mem_doc",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    namespace: text("namespace").notNull(),
    /** working | episodic | semantic | kb | rigid */
    class: text("class").notNull(),
    text: text("text").notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    /** hot | warm | cold | archived */
    tier: text("tier").notNull().default("hot"),
    qualityScore: real("quality_score").notNull().default(0),
    supersedes: text("supersedes"),
    tierChangedAt: integer("tier_changed_at").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at"),
    /** the highest importance across actors (denormalised for the tier sweep) */
    importance: real("importance").notNull().default(10),
    /** last validated use by any actor */
    lastUsedAt: integer("last_used_at"),
    /** written or last reinforced by a near-duplicate write: the recency clock starts here */
    refreshedAt: integer("refreshed_at").notNull().default(0),
    reinforceCount: integer("reinforce_count").notNull().default(0),
    /** sha-256 of namespace + class + normalised text: exact duplicates are found without the index */
    contentHash: text("content_hash"),
  },
  (t) => [
    index("mem_doc_team_ns").on(t.teamId, t.namespace),
    index("mem_doc_tier").on(t.tier, t.tierChangedAt),
    index("mem_doc_expires").on(t.expiresAt),
    index("mem_doc_team_hash").on(t.teamId, t.contentHash),
    index("mem_doc_team_class").on(t.teamId, t.class),
  ],
);

export const memActorImportance = sqliteTable(
  "mem_actor_importance",
  {
    docId: text("doc_id").notNull(),
    actorKey: text("actor_key").notNull(),
    rawScore: real("raw_score").notNull(),
    lastUpdateAt: integer("last_update_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    use7d: integer("use_7d").notNull().default(0),
    use30d: integer("use_30d").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.docId, t.actorKey] })],
);

export const memUseEvents = sqliteTable(
  "mem_use_event",
  {
    id: text("id").primaryKey(),
    docId: text("doc_id").notNull(),
    actorKey: text("actor_key").notNull(),
    runId: text("run_id"),
    ts: integer("ts").notNull(),
    weight: real("weight").notNull(),
  },
  (t) => [index("mem_use_event_doc").on(t.docId)],
);

/** ops-warden session_event.v1 episodes */
export const sessionEvents = sqliteTable(
  "session_event",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    sessionKind: text("session_kind").notNull(),
    command: text("command").notNull(),
    outcome: text("outcome").notNull(),
    needFingerprint: text("need_fingerprint").notNull(),
    routeId: text("route_id").notNull(),
    agentId: text("agent_id").notNull(),
    sessionId: text("session_id").notNull(),
    diagnosticCodes: text("diagnostic_codes", { mode: "json" }).$type<string[]>().notNull(),
    /** the activation that preceded the session (POST /v1/memory/activate's activation_id), when the agent sent it */
    activationId: text("activation_id"),
    /** memory | reasoned: where the agent says its route came from */
    routeSource: text("route_source"),
    /** escalated episodes: route | environment | unknown, as the agent reported it (null: not said) */
    failureCause: text("failure_cause"),
    /** the episode's place in its session (0 first); null when the agent did not number it */
    episodeIndex: integer("episode_index"),
    /** the route the linked activation offered, copied at record time so the route standing needs no join */
    offeredRouteId: text("offered_route_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("session_event_team_fp").on(t.teamId, t.needFingerprint, t.createdAt),
    index("session_event_team_kind").on(t.teamId, t.sessionKind, t.createdAt),
  ],
);

/** one row per POST /v1/memory/activate: what it returned, for llm_calls_avoided and continuity metrics */
export const memActivations = sqliteTable(
  "mem_activation",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    sessionKind: text("session_kind").notNull(),
    agentId: text("agent_id"),
    needFingerprint: text("need_fingerprint"),
    routeId: text("route_id"),
    llmCallsAvoided: integer("llm_calls_avoided").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("mem_activation_team_created").on(t.teamId, t.createdAt)],
);

/** an operator's standing decision about one route of one need: retired (never served) or pinned (always served) */
export const routeOverrides = sqliteTable(
  "route_override",
  {
    teamId: text("team_id").notNull(),
    needFingerprint: text("need_fingerprint").notNull(),
    routeId: text("route_id").notNull(),
    /** retired | pinned */
    state: text("state").notNull(),
    setBy: text("set_by").notNull(),
    setAt: integer("set_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.needFingerprint, t.routeId] })],
);

/** a pin waiting behind its policy_deploy hard gate (deploy target "route_pin") */
export const routePinRequests = sqliteTable(
  "route_pin_request",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    needFingerprint: text("need_fingerprint").notNull(),
    routeId: text("route_id").notNull(),
    /** pending | applied */
    status: text("status").notNull(),
    requestedBy: text("requested_by").notNull(),
    createdAt: createdAt(),
    appliedAt: integer("applied_at"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] })],
);

// ---- learning -----------------------------------------------------------------------------

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

/** messages that exhausted their retries on EVENTS and arrived on warden-events-dlq */
export const eventDeadLetters = sqliteTable(
  "event_dead_letter",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id"),
    eventId: text("event_id"),
    type: text("type"),
    /** the message body as JSON, cut at 8 KiB */
    body: text("body").notNull(),
    attempts: integer("attempts").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [index("event_dead_letter_team_received").on(t.teamId, t.receivedAt)],
);

// ---- plumbing -----------------------------------------------------------------------------

/** idempotency keys of queue messages already applied */
export const processedEvents = sqliteTable("processed_event", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  processedAt: integer("processed_at").notNull(),
});

export const sweepLeases = sqliteTable("sweep_lease", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

// ---- slack ---------------------------------------------------------------------------------

/** one Slack workspace per Warden team: channels and the bot token (AES-GCM, iv + ciphertext, base64) */
export const slackInstallations = sqliteTable(
  "slack_installation",
  {
    workspaceId: text("workspace_id").primaryKey(),
    teamId: text("team_id").notNull(),
    botTokenEnc: text("bot_token_enc").notNull(),
    channels: text("channels", { mode: "json" }).notNull(),
    /** SlackSettings (ports/slack.ts): policy keys whose gate context may show on cards, escalation timers and target */
    settings: text("settings", { mode: "json" }).notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("slack_installation_team").on(t.teamId)],
);

/** the approver roster of a team: which Slack user is which Warden subject, with which role */
export const slackApprovers = sqliteTable(
  "slack_approver",
  {
    teamId: text("team_id").notNull(),
    slackUserId: text("slack_user_id").notNull(),
    subject: text("subject").notNull(),
    role: text("role").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.slackUserId] })],
);

/** messages the outbox posted, by logical key: recorded before the ack, so a redelivery updates instead of reposting */
export const slackMessages = sqliteTable(
  "slack_message",
  {
    key: text("key").primaryKey(),
    teamId: text("team_id").notNull(),
    channel: text("channel").notNull(),
    ts: text("ts").notNull(),
    /** the version of the content last shown (gate cards: opened 1, decided 2); an older one never overwrites it */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  // a reply in a thread names its root by (channel, ts): the run thread it belongs to is found through this index
  (t) => [index("slack_message_channel_ts").on(t.channel, t.ts)],
);

/** Slack delivery health per team (RB-06): consecutive failed outbox deliveries, and since when the team counts as in
 * an approval outage (at SLACK_OUTAGE_AFTER_FAILURES); the next successful delivery resets both */
export const slackDeliveryHealth = sqliteTable("slack_delivery_health", {
  teamId: text("team_id").primaryKey(),
  consecutiveFailures: integer("consecutive_failures").notNull(),
  outageSince: integer("outage_since"),
  lastError: text("last_error"),
  updatedAt: integer("updated_at").notNull(),
  /** the two-person override of the outage fallback (docs/slack.md "Approval outage"): the first admin's request … */
  overrideRequestedBy: text("override_requested_by"),
  overrideRequestedAt: integer("override_requested_at"),
  overrideReason: text("override_reason"),
  /** … how long it lasts once confirmed (ms) … */
  overrideTtlMs: integer("override_ttl_ms"),
  /** … and the second, different admin's confirmation; the fallback is off until override_until or the outage ends */
  overrideConfirmedBy: text("override_confirmed_by"),
  overrideUntil: integer("override_until"),
});

/** uses of each Slack response_url (by its sha256): Slack takes at most 5 within 30 minutes of the first, after which
 * the outbox updates the message with chat.update instead (docs/slack.md "response_url") */
export const slackResponseUrlUses = sqliteTable("slack_response_url_use", {
  urlHash: text("url_hash").primaryKey(),
  teamId: text("team_id").notNull(),
  firstUsedAt: integer("first_used_at").notNull(),
  uses: integer("uses").notNull(),
});

/** roster/channel changes after the first install, each waiting behind a slack_channel_change gate (deploy target
 * `slack`): status pending → active when approved; the whole new installation, bot token sealed as in the installation */
export const slackChangeRequests = sqliteTable(
  "slack_change_request",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    status: text("status").notNull(),
    workspaceId: text("workspace_id").notNull(),
    botTokenEnc: text("bot_token_enc").notNull(),
    channels: text("channels", { mode: "json" }).notNull(),
    approvers: text("approvers", { mode: "json" }).notNull(),
    settings: text("settings", { mode: "json" }).notNull(),
    proposedBy: text("proposed_by").notNull(),
    createdAt: createdAt(),
    activatedAt: integer("activated_at"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] })],
);

/** the run feed per run (one thread in the feed channel): the last steps its status reply shows, the status reply's
 * content version (one more per step taken in), and whether `/warden mute` silenced it */
export const slackFeedRuns = sqliteTable("slack_feed_run", {
  runId: text("run_id").primaryKey(),
  teamId: text("team_id").notNull(),
  /** FeedStep[] (ports/slack-feed.ts), oldest first, at most FEED_STATUS_STEPS */
  steps: text("steps", { mode: "json" }).notNull(),
  version: integer("version").notNull().default(0),
  mutedAt: integer("muted_at"),
  mutedBy: text("muted_by"),
  createdAt: createdAt(),
  updatedAt: integer("updated_at").notNull(),
});

/** one row per operator-alert occurrence (insert-or-ignore by id, so a redelivery counts once); the ops-channel
 * message of a (team, kind, window) shows their count */
export const slackAlertOccurrences = sqliteTable(
  "slack_alert_occurrence",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    kind: text("kind").notNull(),
    windowStart: integer("window_start").notNull(),
    detail: text("detail").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("slack_alert_occurrence_window").on(t.teamId, t.kind, t.windowStart)],
);

/** inbound Slack deliveries already handled (event ids, interaction and command trigger ids): retries change nothing */
export const slackInbound = sqliteTable("slack_inbound", {
  key: text("key").primaryKey(),
  createdAt: createdAt(),
});

// ---- limits and identity ---------------------------------------------------------------------

// ---- artifacts -------------------------------------------------------------------------------

// ---- run messages -------------------------------------------------------------------------------

/** the conversation of a run (`talk`): a worker's messages (POST /v1/runs/:run_id/messages) and the replies people
 * write in the run's Slack thread or DM; `seq` orders them and is the reader's cursor */
export const runMessages = sqliteTable(
  "run_message",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    messageId: text("message_id").notNull(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    /** worker (over the API) | person (a Slack reply) */
    authorKind: text("author_kind").notNull(),
    /** the token's subject, or the roster subject of the Slack user */
    author: text("author").notNull(),
    /** api | slack_thread | slack_dm */
    source: text("source").notNull(),
    taskId: text("task_id"),
    text: text("text").notNull(),
    /** the caller's op_id, or the Slack message ts: a retry finds the message it already wrote */
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("run_message_id").on(t.messageId),
    uniqueIndex("run_message_dedupe").on(t.runId, t.dedupeKey),
    index("run_message_run_seq").on(t.runId, t.seq),
  ],
);
