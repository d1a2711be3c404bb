// D1 tables of the memory feature (drizzle): memories, their importance and uses, sessions, activations, route overrides and pin requests.

import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

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

/**
 * One row per team that has written memory to its team object (insert-or-ignore on its first write per isolate):
 * the list the daily memory sweep walks, least recently swept first.
 */
export const memoryTeams = sqliteTable(
  "memory_team",
  {
    teamId: text("team_id").primaryKey(),
    registeredAt: integer("registered_at").notNull(),
    /** the last sweep of the team's object (0: never swept) */
    sweptAt: integer("swept_at").notNull().default(0),
  },
  (t) => [index("memory_team_swept").on(t.sweptAt, t.teamId)],
);

/**
 * The copy of one team's memory rows from D1's `mem_*` tables into its team object (POST /v1/admin/memory/migrate):
 * the last doc id copied, how many docs were copied, and once the copy is verified its hash and the switch time. While
 * `switched_at` is null and MEMORY_ROWS is "d1-until-migrated", the team's memory is still read and written in D1.
 */
export const memoryMigrations = sqliteTable("memory_migration", {
  teamId: text("team_id").primaryKey(),
  /** the greatest mem_doc id copied ("" before the first page) */
  cursor: text("cursor").notNull().default(""),
  copied: integer("copied").notNull().default(0),
  /** SHA-256 over the sorted (id, content_hash, tier, importance) rows, equal on both sides */
  verifiedHash: text("verified_hash"),
  switchedAt: integer("switched_at"),
});
