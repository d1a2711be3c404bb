// makeDeps(env): the only place configuration is validated and adapters are built.
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { createD1ApiKeyStore } from "./adapters/d1/api-key-store";
import { createD1AuditLog } from "./adapters/d1/audit-log";
import { createD1DecisionCounterStore } from "./adapters/d1/decision-counters";
import { createD1EventDeadLetterStore } from "./adapters/d1/event-dead-letters";
import { createD1GateRuleStore } from "./adapters/d1/gate-rule-store";
import { createD1LearningStore } from "./adapters/d1/learning-store";
import { createD1MemoryMaintenance } from "./adapters/d1/memory-maintenance";
import { createD1MemoryStore } from "./adapters/d1/memory-store";
import { createD1MetricsStore } from "./adapters/d1/metrics-store";
import { createD1OverviewStore } from "./adapters/d1/overview-store";
import { createD1PolicyStore } from "./adapters/d1/policy-store";
import { createD1RouteLedger } from "./adapters/d1/route-ledger";
import { createD1RunIndex } from "./adapters/d1/run-index";
import { createD1RunRecord } from "./adapters/d1/run-record";
import { createD1SlackDeliveryHealth } from "./adapters/d1/slack-delivery-health";
import { createD1SlackFeedStore } from "./adapters/d1/slack-feed-store";
import { createD1SlackResponseUrls } from "./adapters/d1/slack-response-urls";
import { createD1SlackStore } from "./adapters/d1/slack-store";
import { createD1SweepStore } from "./adapters/d1/sweep-store";
import { createD1TeamLimitStore } from "./adapters/d1/team-limits";
import { createDurableBoardGateway } from "./adapters/do/board-gateway";
import { createDurableRunGateway } from "./adapters/do/run-gateway";
import { createHashingEmbedder } from "./adapters/embed/hashing";
import { createWorkersAiEmbedder } from "./adapters/embed/workers-ai";
import { type BufferedEventBus, createBufferedEventBus } from "./adapters/queue/buffered-event-bus";
import { createQueueEventBus } from "./adapters/queue/event-bus";
import { createR2DecisionObjects } from "./adapters/r2/decision-objects";
import { createMemoryRateLimiter } from "./adapters/ratelimit/memory";
import { createUpstashRateLimiter } from "./adapters/ratelimit/upstash";
import { createBindingRateLimiter } from "./adapters/ratelimit/workers-binding";
import { createTokenCipher } from "./adapters/slack/token-cipher";
import { createSlackOAuthApi, createSlackWebApi, SLACK_DEFAULT_API_BASE_URL } from "./adapters/slack/web-api";
import { createDoVectorIndex } from "./adapters/vector/durable-object";
import { createVectorizeIndex, type VectorizeBinding } from "./adapters/vector/vectorize";
import { type ApiKeyAuth, createApiKeyAuth } from "./auth/api-keys";
import { createExternalVerifier } from "./auth/external";
import { createTokenVerifier, type SigningKey, type TokenVerifier } from "./auth/tokens";
import { createGateRuleCache, type GateRuleCache } from "./features/gates";
import { snapshotPolicyMemory } from "./features/learning";
import {
  createCardRefreshingMaintenance,
  createIndexSync,
  createMemoryHints,
  createMemoryService,
  createSessions,
  createTaskMemorySink,
  type MemoryService,
  type Sessions,
} from "./features/memory";
import {
  countDecisions,
  createDecisionLogWriter,
  createTeamPolicyCache,
  DECISION_LOG_DELAY_MS,
  type TeamPolicyCache,
} from "./features/policy";
import type { RunEngineNeeds, RunsService } from "./features/runs";
import { createEscalationTimingsCache } from "./features/slack";
import type { AuditLogStore } from "./ports/audit-log";
import type { Clock } from "./ports/clock";
import type { DecisionCounterStore, DecisionCounts, DecisionObjects } from "./ports/decision-log";

export type { Clock };

import {
  createTeamLimits,
  DEFAULT_CEILING_MULTIPLE,
  DEFAULT_LIMITS,
  DEFAULT_PREAUTH_PER_MINUTE,
} from "./http/rate-limits";
import type { HttpLimits } from "./http/types";
import type { ApiKeyStore } from "./ports/api-key-store";
import type { BoardGateway } from "./ports/board";
import type { Embedder } from "./ports/embedder";
import type { EventBus, WardenEvent } from "./ports/event-bus";
import type { EventDeadLetterStore } from "./ports/event-dead-letters";
import type { GateRuleStore } from "./ports/gate-rule-store";
import type { HintsProvider } from "./ports/hints";
import type { LearningStore } from "./ports/learning-store";
import type { MemoryIndexSync, MemoryMaintenance } from "./ports/memory-maintenance";
import type { MemoryStore } from "./ports/memory-store";
import type { MetricsStore } from "./ports/metrics-store";
import type { OverviewStore } from "./ports/overview-store";
import type { PolicyMemoryReader } from "./ports/policy-memory";
import type { PolicyStore } from "./ports/policy-store";
import type { RateLimiter } from "./ports/rate-limiter";
import type { RouteLedger } from "./ports/route-ledger";
import type { RunIndex } from "./ports/run-index";
import type { RunRecordStore } from "./ports/run-record";
import type {
  SlackApi,
  SlackDeliveryHealth,
  SlackOutbox,
  SlackOutboxMessage,
  SlackResponseUrls,
  SlackStore,
} from "./ports/slack";
import type { SlackFeedStore } from "./ports/slack-feed";
import type { SlackOAuthApi } from "./ports/slack-oauth";
import type { SweepStore } from "./ports/sweep-store";
import type { TaskMemorySink } from "./ports/task-memory";
import type { TeamLimitStore } from "./ports/team-limits";
import type { VectorIndex } from "./ports/vector-index";

const Config = z.object({
  WARDEN_JWT_SECRET: z.string().min(32, "WARDEN_JWT_SECRET must be at least 32 characters"),
  WARDEN_VERSION: z.string().default("0.0.0"),
  EMBEDDER: z.enum(["hashing", "workers-ai"]).default("hashing"),
  VECTOR_INDEX_KIND: z.enum(["local", "vectorize"]).default("local"),
  /** key id of WARDEN_JWT_SECRET (the current secret; new tokens carry it as `kid`) */
  WARDEN_JWT_KID: z
    .string()
    .regex(/^[\w.-]{1,64}$/)
    .default("k1"),
  /** during a rotation: the previous secret and its key id, still accepted (docs/security.md "Key rotation") */
  WARDEN_JWT_SECRET_PREVIOUS: z.string().min(32).optional(),
  WARDEN_JWT_KID_PREVIOUS: z
    .string()
    .regex(/^[\w.-]{1,64}$/)
    .optional(),
  /** external identity provider (optional): RS256/ES256 tokens through the issuer's JWKS */
  WARDEN_IDP_ISSUER: z.string().min(1).optional(),
  WARDEN_IDP_JWKS_URL: z.url().optional(),
  WARDEN_IDP_AUDIENCE: z.string().min(1).default("warden"),
  WARDEN_IDP_ALGORITHMS: z
    .string()
    .regex(/^(RS256|ES256)(,(RS256|ES256))*$/)
    .default("RS256,ES256"),
  WARDEN_IDP_TEAM_CLAIM: z.string().min(1).default("team_id"),
  WARDEN_IDP_SCOPES_CLAIM: z.string().min(1).default("scope"),
  /**
   * memory: per-isolate sliding window (local default); binding: the Workers rate-limiting binding (production);
   * upstash is chosen whenever UPSTASH_REDIS_REST_URL and _TOKEN are set
   */
  RATE_LIMITER_KIND: z.enum(["memory", "binding", "upstash"]).default("memory"),
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  /** "off" only for the bench's limits-disabled row */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** per team per minute for the "other" route class (the per-class defaults: src/http/rate-limits.ts) */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_PREAUTH_PER_MINUTE: z.coerce.number().int().positive().default(DEFAULT_PREAUTH_PER_MINUTE),
  /** "false" when the Worker does not sit behind Cloudflare (npm start): CF-Connecting-IP is then the caller's to forge */
  BEHIND_CLOUDFLARE: z.enum(["true", "false"]).default("true"),
  /** a team may raise its own limits to at most this multiple of the defaults (the deployment's, not the team's) */
  RATE_LIMIT_CEILING_MULTIPLE: z.coerce.number().positive().max(1000).default(DEFAULT_CEILING_MULTIPLE),
  MEMORY_SUMMARY_MAX_CHARS: z.coerce.number().int().min(100).max(20_000).default(2000),
  /** Slack's signing secret; without it every /slack/* request is refused (401) */
  SLACK_SIGNING_SECRET: z.string().min(16).optional(),
  /** the previous signing secret during a rotation (docs/security.md): still accepted, next to the current one */
  SLACK_SIGNING_SECRET_PREVIOUS: z.string().min(16).optional(),
  /** the key (any string ≥ 32 chars) bot tokens are encrypted under (AES-GCM); without it no installation is stored */
  SLACK_TOKEN_KEY: z.string().min(32).optional(),
  /** Slack Web API base URL: tests and local runs point it at a loopback server */
  SLACK_API_BASE_URL: z.url().default(SLACK_DEFAULT_API_BASE_URL),
  /** the Slack app's OAuth credentials (GET /slack/install, /slack/oauth/callback); without them OAuth install is off */
  SLACK_CLIENT_ID: z.string().min(1).optional(),
  SLACK_CLIENT_SECRET: z.string().min(1).optional(),
  /** Slack's authorize page: tests and local runs point it elsewhere */
  SLACK_OAUTH_AUTHORIZE_URL: z.url().default("https://slack.com/oauth/v2/authorize"),
  /** where humans reach this Worker (links in Slack messages to the Run Trace page) */
  PUBLIC_URL: z.string().default(""),
});
export type Config = z.infer<typeof Config>;

export type Deps = {
  config: Config;
  clock: Clock;
  newId: (prefix: string) => string;
  verifyToken: TokenVerifier;
  /** signs capability tokens with the current secret and its kid (POST /v1/tokens) */
  signingKey: SigningKey;
  rateLimiter: RateLimiter;
  limits: HttpLimits;
  teamLimitStore: TeamLimitStore;
  apiKeyStore: ApiKeyStore;
  apiKeys: ApiKeyAuth;
  events: EventBus;
  /** coalesces high-rate events (the decision log) into one R2 object per group (EVENTS when that fails) */
  decisionEvents: BufferedEventBus;
  /** the decision log's objects (R2 DECISION_LOG) and its counters, manifest and outage counter (D1) */
  decisionObjects: DecisionObjects;
  decisionCounters: DecisionCounterStore;
  /** the decision log's counts since a time (GET /v1/metrics): whole hours from the counters, the first hour exact */
  decisionCounts: (teamId: string, since: number) => Promise<DecisionCounts>;
  policyStore: PolicyStore;
  policies: TeamPolicyCache;
  /** learning: idempotency keys, staged task outcomes, policy memory (ledger first) */
  learningStore: LearningStore;
  /** YARLI memories from task.failed / task.blocked, written through the guarded memory write use-case */
  taskMemory: TaskMemorySink;
  eventDeadLetters: EventDeadLetterStore;
  /** audit_log: refused memory writes and other audited actions, listed by GET /v1/audit */
  auditLog: AuditLogStore;
  sweepStore: SweepStore;
  memoryMaintenance: MemoryMaintenance;
  /** removes memories that left the hot tier from the vector index */
  memoryIndexSync: MemoryIndexSync;
  metricsStore: MetricsStore;
  /** the team overview page's read model (and the trace page's attempt latencies) */
  overviewStore: OverviewStore;
  /** sessions joined with the route their activation served; operators' route overrides and pending pins */
  routeLedger: RouteLedger;
  /** memory hints for runs (best-effort, over the memory query) */
  hints: HintsProvider;
  /** the team's policy memory for run snapshots and decisions (learning's snapshot over learningStore) */
  policyMemory: PolicyMemoryReader;
  /** the per-run Durable Objects */
  runs: RunsService;
  /** the per-team work boards (BoardDO, "board:" + team_id) */
  board: BoardGateway;
  runRecord: RunRecordStore;
  /** team-wide lists over the run record: runs, open gates, orders available to lease */
  runIndex: RunIndex;
  gateRuleStore: GateRuleStore;
  gateRules: GateRuleCache;
  vectorIndex: VectorIndex;
  embedder: Embedder;
  memory: MemoryService;
  sessions: Sessions;
  /** Slack: installations, roster, posted messages, inbound dedupe */
  slackStore: SlackStore;
  /** the one outbound Slack client (SLACK_API_BASE_URL) */
  slackApi: SlackApi;
  /** slow Slack work, done by the SLACK_OUTBOX consumer */
  slackOutbox: SlackOutbox;
  /** oauth.v2.access under SLACK_API_BASE_URL (the OAuth install's code exchange) */
  slackOAuth: SlackOAuthApi;
  /** failed Slack deliveries per team (approval outage, RB-06) */
  slackHealth: SlackDeliveryHealth;
  /** the run feed's per-run state (status steps, mute) and operator-alert occurrences */
  slackFeed: SlackFeedStore;
  /** uses of each Slack response_url (5 in 30 minutes, then chat.update) */
  slackResponseUrls: SlackResponseUrls;
};

function buildEmbedder(config: Config, env: Env): Embedder {
  if (config.EMBEDDER === "hashing") return createHashingEmbedder();
  if (!env.AI) throw new Error("invalid configuration: EMBEDDER=workers-ai needs the AI binding");
  return createWorkersAiEmbedder(env.AI as unknown as Parameters<typeof createWorkersAiEmbedder>[0]);
}

function buildVectorIndex(config: Config, env: Env): VectorIndex {
  if (config.VECTOR_INDEX_KIND === "local") return createDoVectorIndex(env.VECTOR_INDEX);
  if (!env.VECTORIZE) throw new Error("invalid configuration: VECTOR_INDEX_KIND=vectorize needs the VECTORIZE binding");
  return createVectorizeIndex(env.VECTORIZE as unknown as VectorizeBinding);
}

function buildRateLimiter(config: Config, env: Env): RateLimiter {
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    return createUpstashRateLimiter({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN });
  }
  if (config.RATE_LIMITER_KIND === "upstash") {
    throw new Error("invalid configuration: RATE_LIMITER_KIND=upstash needs UPSTASH_REDIS_REST_URL and _TOKEN");
  }
  if (config.RATE_LIMITER_KIND === "binding") return createBindingRateLimiter(env.RATE_LIMITER);
  return createMemoryRateLimiter();
}

function buildVerifier(config: Config): TokenVerifier {
  const keys: SigningKey[] = [{ kid: config.WARDEN_JWT_KID, secret: config.WARDEN_JWT_SECRET }];
  if (config.WARDEN_JWT_SECRET_PREVIOUS) {
    if (!config.WARDEN_JWT_KID_PREVIOUS || config.WARDEN_JWT_KID_PREVIOUS === config.WARDEN_JWT_KID) {
      throw new Error("invalid configuration: WARDEN_JWT_SECRET_PREVIOUS needs its own WARDEN_JWT_KID_PREVIOUS");
    }
    keys.push({ kid: config.WARDEN_JWT_KID_PREVIOUS, secret: config.WARDEN_JWT_SECRET_PREVIOUS });
  }
  const external =
    config.WARDEN_IDP_ISSUER && config.WARDEN_IDP_JWKS_URL
      ? createExternalVerifier({
          issuer: config.WARDEN_IDP_ISSUER,
          jwksUrl: config.WARDEN_IDP_JWKS_URL,
          audience: config.WARDEN_IDP_AUDIENCE,
          algorithms: config.WARDEN_IDP_ALGORITHMS.split(",") as ("RS256" | "ES256")[],
          teamClaim: config.WARDEN_IDP_TEAM_CLAIM,
          scopesClaim: config.WARDEN_IDP_SCOPES_CLAIM,
        })
      : undefined;
  return createTokenVerifier(keys, { external });
}

export const systemClock: Clock = { now: () => Date.now() };
export const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;

function parseConfig(env: Env): Config {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}

/** The fields the run engine needs, and what they are built from (memory for the hints). */
type EngineParts = Pick<
  Deps,
  | "config"
  | "newId"
  | "events"
  | "policyStore"
  | "policies"
  | "gateRuleStore"
  | "gateRules"
  | "runRecord"
  | "routeLedger"
  | "vectorIndex"
  | "embedder"
  | "memory"
  | "hints"
  | "learningStore"
  | "policyMemory"
  | "slackStore"
>;

/**
 * The shared builder: every field is the override when given, else built — derived services (caches, memory, hints)
 * from the final fields, so an override is never used by some services and ignored by others.
 */
function buildEngineParts(env: Env, o: Partial<Deps>): EngineParts & { memoryStore: MemoryStore } {
  const config = o.config ?? parseConfig(env);
  const db = drizzle(env.DB);
  const ids = o.newId ?? newId;
  const events = o.events ?? createQueueEventBus(env.EVENTS as unknown as Queue<WardenEvent>);
  const policyStore = o.policyStore ?? createD1PolicyStore(db);
  const gateRuleStore = o.gateRuleStore ?? createD1GateRuleStore(db);
  const vectorIndex = o.vectorIndex ?? buildVectorIndex(config, env);
  const embedder = o.embedder ?? buildEmbedder(config, env);
  const memoryStore = createD1MemoryStore(db);
  const learningStore = o.learningStore ?? createD1LearningStore(env.DB);
  const memory =
    o.memory ??
    createMemoryService({
      store: memoryStore,
      index: vectorIndex,
      embedder,
      events,
      newId: ids,
      summaryMaxChars: config.MEMORY_SUMMARY_MAX_CHARS,
    });
  return {
    config,
    newId: ids,
    events,
    policyStore,
    policies: o.policies ?? createTeamPolicyCache(policyStore),
    gateRuleStore,
    // the team's approval outage (RB-06) is read with its gate rules, so opening a gate pays no D1 read of its own
    gateRules:
      o.gateRules ?? createGateRuleCache(gateRuleStore, undefined, o.slackHealth ?? createD1SlackDeliveryHealth(db)),
    runRecord: o.runRecord ?? createD1RunRecord(db),
    routeLedger: o.routeLedger ?? createD1RouteLedger(db),
    vectorIndex,
    embedder,
    memory,
    hints: o.hints ?? createMemoryHints(memory),
    learningStore,
    policyMemory: o.policyMemory ?? { snapshot: (teamId, now) => snapshotPolicyMemory({ learningStore }, teamId, now) },
    memoryStore,
    // the run engine activates approved Slack installation changes (deploy target `slack`)
    slackStore:
      o.slackStore ?? createD1SlackStore(db, config.SLACK_TOKEN_KEY ? createTokenCipher(config.SLACK_TOKEN_KEY) : null),
  };
}

const cache = new WeakMap<object, Deps>();

/** One Deps per env object (per isolate), so caches (tokens, compiled profiles) live across requests. */
export function makeDeps(env: Env, overrides: Partial<Deps> = {}): Deps {
  const cached = Object.keys(overrides).length === 0 ? cache.get(env) : undefined;
  if (cached) return cached;
  const o = overrides;
  const { memoryStore, ...engine } = buildEngineParts(env, o);
  const { config, events, memory, vectorIndex } = engine;
  const db = drizzle(env.DB);
  const clock = o.clock ?? systemClock;
  const teamLimitStore = o.teamLimitStore ?? createD1TeamLimitStore(db);
  const apiKeyStore = o.apiKeyStore ?? createD1ApiKeyStore(db);
  const auditLog = o.auditLog ?? createD1AuditLog(db);
  const decisionObjects = o.decisionObjects ?? createR2DecisionObjects(env.DECISION_LOG);
  const decisionCounters = o.decisionCounters ?? createD1DecisionCounterStore(env.DB, db);
  const deps: Deps = {
    ...engine,
    clock,
    verifyToken: o.verifyToken ?? buildVerifier(config),
    signingKey: o.signingKey ?? { kid: config.WARDEN_JWT_KID, secret: config.WARDEN_JWT_SECRET },
    rateLimiter: o.rateLimiter ?? buildRateLimiter(config, env),
    limits: o.limits ?? {
      enabled: config.RATE_LIMITS === "on",
      preauthPerMinute: config.RATE_LIMIT_PREAUTH_PER_MINUTE,
      trustClientIp: config.BEHIND_CLOUDFLARE === "true",
      ceilingMultiple: config.RATE_LIMIT_CEILING_MULTIPLE,
      team: createTeamLimits(teamLimitStore, {
        ...DEFAULT_LIMITS,
        other: { ...DEFAULT_LIMITS.other, perTeam: config.RATE_LIMIT_PER_MINUTE },
      }),
    },
    teamLimitStore,
    apiKeyStore,
    apiKeys: o.apiKeys ?? createApiKeyAuth(apiKeyStore),
    decisionEvents:
      o.decisionEvents ??
      createBufferedEventBus(
        createDecisionLogWriter({ decisionObjects, decisionCounters, clock }, events),
        100,
        DECISION_LOG_DELAY_MS,
      ),
    decisionObjects,
    decisionCounters,
    decisionCounts:
      o.decisionCounts ??
      ((teamId, since) =>
        countDecisions({ decisionObjects, decisionCounters, policyStore: engine.policyStore }, teamId, since)),
    learningStore: engine.learningStore,
    taskMemory: o.taskMemory ?? createTaskMemorySink(memory, () => clock.now()),
    eventDeadLetters: o.eventDeadLetters ?? createD1EventDeadLetterStore(db),
    auditLog,
    sweepStore: o.sweepStore ?? createD1SweepStore(db),
    memoryMaintenance: o.memoryMaintenance ?? createCardRefreshingMaintenance(createD1MemoryMaintenance(db), memory),
    memoryIndexSync: o.memoryIndexSync ?? createIndexSync(vectorIndex),
    metricsStore: o.metricsStore ?? createD1MetricsStore(db),
    overviewStore: o.overviewStore ?? createD1OverviewStore(db),
    runs: o.runs ?? createDurableRunGateway(env.RUN, config.WARDEN_JWT_SECRET),
    board: o.board ?? createDurableBoardGateway(env.BOARD),
    runIndex: o.runIndex ?? createD1RunIndex(db),
    sessions:
      o.sessions ??
      createSessions({
        store: memoryStore,
        routeLedger: engine.routeLedger,
        auditLog,
        memory,
        events,
        newId: engine.newId,
      }),
    ...buildSlackParts(env, config, db, o),
  };
  if (Object.keys(overrides).length === 0) cache.set(env, deps);
  return deps;
}

/** The Slack Web API clients and the D1 stores of Slack deliveries (the installation store is an engine part). */
function buildSlackParts(
  env: Env,
  config: Config,
  db: DrizzleD1Database,
  o: Partial<Deps>,
): Pick<Deps, "slackApi" | "slackOAuth" | "slackHealth" | "slackFeed" | "slackResponseUrls" | "slackOutbox"> {
  return {
    slackApi: o.slackApi ?? createSlackWebApi(config.SLACK_API_BASE_URL),
    slackOAuth: o.slackOAuth ?? createSlackOAuthApi(config.SLACK_API_BASE_URL),
    slackHealth: o.slackHealth ?? createD1SlackDeliveryHealth(db),
    slackFeed: o.slackFeed ?? createD1SlackFeedStore(db),
    slackResponseUrls: o.slackResponseUrls ?? createD1SlackResponseUrls(db),
    slackOutbox: o.slackOutbox ?? {
      send: async (messages) => {
        if (messages.length)
          await (env.SLACK_OUTBOX as unknown as Queue<SlackOutboxMessage>).sendBatch(
            messages.map((body) => ({ body })),
          );
      },
    },
  };
}

const engineCache = new WeakMap<object, RunEngineNeeds>();

/** What a run's Durable Object uses, and nothing else, built once per isolate with the same builder as makeDeps. */
export function makeRunEngineNeeds(env: Env): RunEngineNeeds {
  const cached = engineCache.get(env);
  if (cached) return cached;
  const p = buildEngineParts(env, {});
  const needs: RunEngineNeeds = {
    policies: p.policies,
    gateRules: p.gateRules,
    policyStore: p.policyStore,
    gateRuleStore: p.gateRuleStore,
    routeLedger: p.routeLedger,
    runRecord: p.runRecord,
    events: p.events,
    hints: p.hints,
    policyMemory: p.policyMemory,
    newId: p.newId,
    slackStore: p.slackStore,
    escalationTimings: createEscalationTimingsCache(p.slackStore),
    board: createDurableBoardGateway(env.BOARD),
  };
  engineCache.set(env, needs);
  return needs;
}
