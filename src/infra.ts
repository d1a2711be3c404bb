// infra(env): the configuration and the shared adapters over the Worker's bindings, each built once per isolate.
import { drizzle } from "drizzle-orm/d1";
import { buildEmbedder, buildRateLimiter, buildVectorIndex, buildVerifier } from "./adapter-choices";
import { createD1MemoryStore } from "./adapters/d1/memory-store";
import { createDurableBoardGateway } from "./adapters/do/board-gateway";
import { createTeamDecisionJournal } from "./adapters/do/decision-journal";
import { createDurableRunGateway } from "./adapters/do/run-gateway";
import {
  createTeamMemoryImport,
  createTeamMemoryMaintenance,
  createTeamMemoryStore,
} from "./adapters/do/team-memory-store";
import { createSwitchingMemoryStore } from "./adapters/memory-rows-switch";
import { createQueueEventBus } from "./adapters/queue/event-bus";
import { createR2ArtifactObjects } from "./adapters/r2/artifact-objects";
import { createR2DecisionObjects } from "./adapters/r2/decision-objects";
import { createTokenCipher } from "./adapters/slack/token-cipher";
import { createSlackOAuthApi, createSlackWebApi } from "./adapters/slack/web-api";
import { createApiKeyAuth } from "./auth/api-keys";
import { type Config, parseConfig } from "./config";
import type { ArtifactLimits } from "./features/artifacts";
import { createD1ArtifactStore } from "./features/artifacts/store/artifact-store";
import { createD1AuditLog } from "./features/audit/store/audit-log";
import { createD1DeadLetterIndex } from "./features/dead-letters/store/dead-letter-index";
import { createD1EventDeadLetterStore } from "./features/events/store/event-dead-letters";
import { createD1EventDeliveries } from "./features/events/store/event-deliveries";
import { createD1DeployApproverStore } from "./features/gates/store/deploy-approvers";
import { createD1GateRuleStore } from "./features/gates/store/gate-rule-store";
import { createD1GateSlaStore } from "./features/gates/store/gate-sla-store";
import { createD1ApiKeyStore } from "./features/keys/store/api-key-store";
import type { LearningStore } from "./features/learning/domain";
import { createD1LearningStore } from "./features/learning/store/learning-store";
import { createD1TeamLimitStore } from "./features/limits/store/team-limits";
import { createD1MemoryMigrationSource } from "./features/memory/store/memory-migration-store";
import { createD1MemoryTeamRegistry } from "./features/memory/store/memory-team-registry";
import { createD1RouteLedger } from "./features/memory/store/route-ledger";
import { createD1RunMessageStore } from "./features/messages/store/run-message-store";
import { createD1MetricsStore } from "./features/metrics/store/metrics-store";
import { createD1OverviewStore } from "./features/pages/store/overview-store";
import { createD1DecisionCounterStore } from "./features/policy/store/decision-counters";
import { createD1PolicyStore } from "./features/policy/store/policy-store";
import type { RunsService } from "./features/runs";
import { createD1RunIndex } from "./features/runs/store/run-index";
import { createD1RunRecord } from "./features/runs/store/run-record";
import type { SlackOutbox, SlackOutboxMessage, SlackStore } from "./features/slack/domain";
import { createD1SlackDeliveryHealth } from "./features/slack/store/slack-delivery-health";
import { createD1SlackFeedStore } from "./features/slack/store/slack-feed-store";
import { createD1SlackResponseUrls } from "./features/slack/store/slack-response-urls";
import { createD1SlackStore } from "./features/slack/store/slack-store";
import { createD1SweepStore } from "./features/sweeps/store/sweep-store";
import { createTeamLimits, DEFAULT_LIMITS } from "./http/rate-limits";
import type { HttpNeeds } from "./http/types";
import type { ArtifactObjects } from "./ports/artifact-objects";
import type { BoardGateway } from "./ports/board";
import type { Clock } from "./ports/clock";
import type { DecisionJournal } from "./ports/decision-journal";
import type { DecisionCounterStore, DecisionObjects } from "./ports/decision-log";
import type { Embedder } from "./ports/embedder";
import type { EventBus, WardenEvent } from "./ports/event-bus";
import type { TeamMemoryMaintenance } from "./ports/memory-maintenance";
import type { MemoryMigrationTarget } from "./ports/memory-migration";
import type { MemoryStore } from "./ports/memory-store";
import type { SlackApi } from "./ports/slack-api";
import type { SlackOAuthApi } from "./ports/slack-oauth";
import type { VectorIndex } from "./ports/vector-index";

export const systemClock: Clock = { now: () => Date.now() };
export const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;

/** Builds one adapter of a D1 database handle. */
type OverD1<T> = (db: ReturnType<typeof drizzle<Record<string, never>, D1Database>>) => T;

/** The D1 stores, by field name: each table's reader/writer, built over one drizzle handle. */
const D1_STORES = {
  teamLimitStore: createD1TeamLimitStore,
  /** the deploy-approver roster and its pending versions */
  deployApproverStore: createD1DeployApproverStore,
  /** per-team gate SLAs and the breach alerts already sent */
  gateSla: createD1GateSlaStore,
  apiKeyStore: createD1ApiKeyStore,
  auditLog: createD1AuditLog,
  policyStore: createD1PolicyStore,
  eventDeadLetters: createD1EventDeadLetterStore,
  /** the EVENTS consumer's delivery keys (event_id + subscriber) while a message is retried */
  eventDeliveries: createD1EventDeliveries,
  sweepStore: createD1SweepStore,
  metricsStore: createD1MetricsStore,
  overviewStore: createD1OverviewStore,
  routeLedger: createD1RouteLedger,
  runRecord: createD1RunRecord,
  runIndex: createD1RunIndex,
  gateRuleStore: createD1GateRuleStore,
  /** session episodes and activations (D1); the memory rows themselves are in the team objects (`memoryStore`) */
  d1MemoryStore: createD1MemoryStore,
  /** the teams whose memory lives in their team object, for the daily memory sweep */
  memoryTeams: createD1MemoryTeamRegistry,
  /** the copy of D1's memory rows into the team objects (memory_migration: cursor, verification, switch) */
  memoryMigrationSource: createD1MemoryMigrationSource,
  /** failed Slack deliveries per team (approval outage, RB-06) */
  slackHealth: createD1SlackDeliveryHealth,
  /** the run feed's per-run state (status steps, mute) and operator-alert occurrences */
  slackFeed: createD1SlackFeedStore,
  /** uses of each Slack response_url (5 in 30 minutes, then chat.update) */
  slackResponseUrls: createD1SlackResponseUrls,
  /** run artifacts' rows (their bytes: artifactObjects) */
  artifactStore: createD1ArtifactStore,
  /** a run's conversation (talk): workers' messages and people's Slack replies */
  runMessages: createD1RunMessageStore,
  /** the team's dead letters with their review gates (read side; run-record.ts writes them) */
  deadLetterIndex: createD1DeadLetterIndex,
} satisfies Record<string, OverD1<unknown>>;

type D1Stores = { [K in keyof typeof D1_STORES]: ReturnType<(typeof D1_STORES)[K]> };

/** The shared adapters every feature may be handed; the features build their own services over them (features/index.ts). */
export type Infra = HttpNeeds &
  D1Stores & {
    config: Config;
    newId: (prefix: string) => string;
    /** signs capability tokens with the current secret and its kid (POST /v1/tokens) */
    signingKey: { kid: string; secret: string };
    events: EventBus;
    /** learning: idempotency keys, staged task outcomes, policy memory (ledger first); raw D1 batches */
    learningStore: LearningStore;
    /** memory rows in each team's object (VECTOR_INDEX, one per team); session rows through `d1MemoryStore` */
    memoryStore: MemoryStore;
    /** the memory lifecycle per team object (the memory feature adds card refreshes: `memoryMaintenance`) */
    memoryMaintenanceStore: TeamMemoryMaintenance;
    /** the copy job's target: D1's memory rows imported into each team object */
    memoryMigrationTarget: MemoryMigrationTarget;
    vectorIndex: VectorIndex;
    embedder: Embedder;
    /** the per-run Durable Objects */
    runs: RunsService;
    /** the per-team work boards (BoardDO, "board:" + team_id) */
    board: BoardGateway;
    /** Slack: installations, roster, posted messages, inbound dedupe (bot tokens sealed under SLACK_TOKEN_KEY) */
    slackStore: SlackStore;
    /** the one outbound Slack client (SLACK_API_BASE_URL) */
    slackApi: SlackApi;
    /** oauth.v2.access under SLACK_API_BASE_URL (the OAuth install's code exchange) */
    slackOAuth: SlackOAuthApi;
    /** slow Slack work, done by the SLACK_OUTBOX consumer */
    slackOutbox: SlackOutbox;
    /** run artifacts' bytes in the ARTIFACTS bucket, and their size limits */
    artifactObjects: ArtifactObjects;
    artifactLimits: ArtifactLimits;
    /** the decision log's objects (R2 DECISION_LOG) and its counters, manifest and outage counter (D1) */
    decisionObjects: DecisionObjects;
    decisionCounters: DecisionCounterStore;
    /** each team's decision journal in its team object (VECTOR_INDEX): decide's durable hand-off to the log */
    decisionJournal: DecisionJournal;
  };

/** Every field is the override when one is given, else built; what is built over another field uses the final one. */
export function infra(env: Env, o: Partial<Infra> = {}): Infra {
  const config = o.config ?? parseConfig(env);
  const db = drizzle(env.DB);
  const stores = Object.fromEntries(
    Object.entries(D1_STORES).map(([k, make]) => [k, o[k as keyof D1Stores] ?? (make as OverD1<unknown>)(db)]),
  ) as D1Stores;
  return {
    ...stores,
    config,
    clock: o.clock ?? systemClock,
    newId: o.newId ?? newId,
    verifyToken: o.verifyToken ?? buildVerifier(config),
    signingKey: o.signingKey ?? { kid: config.WARDEN_JWT_KID, secret: config.WARDEN_JWT_SECRET },
    rateLimiter: o.rateLimiter ?? buildRateLimiter(config, env),
    limits: o.limits ?? {
      enabled: config.RATE_LIMITS === "on",
      preauthPerMinute: config.RATE_LIMIT_PREAUTH_PER_MINUTE,
      trustClientIp: config.BEHIND_CLOUDFLARE === "true",
      ceilingMultiple: config.RATE_LIMIT_CEILING_MULTIPLE,
      team: createTeamLimits(stores.teamLimitStore, {
        ...DEFAULT_LIMITS,
        other: { ...DEFAULT_LIMITS.other, perTeam: config.RATE_LIMIT_PER_MINUTE },
      }),
    },
    apiKeys: o.apiKeys ?? createApiKeyAuth(stores.apiKeyStore),
    events: o.events ?? createQueueEventBus(env.EVENTS as unknown as Queue<WardenEvent>),
    learningStore: o.learningStore ?? createD1LearningStore(env.DB),
    memoryStore: o.memoryStore ?? buildMemoryStore(config, env, stores),
    memoryMaintenanceStore:
      o.memoryMaintenanceStore ?? createTeamMemoryMaintenance(env.VECTOR_INDEX, stores.memoryTeams),
    memoryMigrationTarget: o.memoryMigrationTarget ?? createTeamMemoryImport(env.VECTOR_INDEX),
    vectorIndex: o.vectorIndex ?? buildVectorIndex(config, env),
    embedder: o.embedder ?? buildEmbedder(config, env),
    runs: o.runs ?? createDurableRunGateway(env.RUN, config.WARDEN_JWT_SECRET),
    board: o.board ?? createDurableBoardGateway(env.BOARD),
    slackStore:
      o.slackStore ?? createD1SlackStore(db, config.SLACK_TOKEN_KEY ? createTokenCipher(config.SLACK_TOKEN_KEY) : null),
    slackApi: o.slackApi ?? createSlackWebApi(config.SLACK_API_BASE_URL),
    slackOAuth: o.slackOAuth ?? createSlackOAuthApi(config.SLACK_API_BASE_URL),
    slackOutbox: o.slackOutbox ?? queueSlackOutbox(env),
    artifactObjects: o.artifactObjects ?? createR2ArtifactObjects(env.ARTIFACTS),
    decisionObjects: o.decisionObjects ?? createR2DecisionObjects(env.DECISION_LOG),
    decisionCounters: o.decisionCounters ?? createD1DecisionCounterStore(env.DB, db),
    decisionJournal: o.decisionJournal ?? createTeamDecisionJournal(env.VECTOR_INDEX),
    artifactLimits: o.artifactLimits ?? {
      maxBytes: config.ARTIFACT_MAX_BYTES,
      teamQuotaBytes: config.ARTIFACT_TEAM_QUOTA_BYTES,
    },
  };
}

/** The memory rows' home: the team objects, or per team D1 until its copy is switched (MEMORY_ROWS). */
function buildMemoryStore(config: Config, env: Env, stores: D1Stores): MemoryStore {
  const inObject = createTeamMemoryStore(env.VECTOR_INDEX, stores.d1MemoryStore, stores.memoryTeams);
  if (config.MEMORY_ROWS === "team-object") return inObject;
  const source = stores.memoryMigrationSource;
  return createSwitchingMemoryStore(
    inObject,
    stores.d1MemoryStore,
    async (teamId) => (await source.state(teamId)).switchedAt !== null,
  );
}

/** The SLACK_OUTBOX producer: one sendBatch per call, nothing sent for an empty list. */
function queueSlackOutbox(env: Env): SlackOutbox {
  const queue = env.SLACK_OUTBOX as unknown as Queue<SlackOutboxMessage>;
  return {
    send: async (messages) => {
      if (messages.length) await queue.sendBatch(messages.map((body) => ({ body })));
    },
  };
}
