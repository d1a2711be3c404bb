// makeDeps(env): the only place configuration is validated and adapters are built.
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { createD1AuditLog } from "./adapters/d1/audit-log";
import { createD1EventDeadLetterStore } from "./adapters/d1/event-dead-letters";
import { createD1GateRuleStore } from "./adapters/d1/gate-rule-store";
import { createD1LearningStore } from "./adapters/d1/learning-store";
import { createD1MemoryMaintenance } from "./adapters/d1/memory-maintenance";
import { createD1MemoryStore } from "./adapters/d1/memory-store";
import { createD1MetricsStore } from "./adapters/d1/metrics-store";
import { createD1OverviewStore } from "./adapters/d1/overview-store";
import { createD1PolicyStore } from "./adapters/d1/policy-store";
import { createD1RunRecord } from "./adapters/d1/run-record";
import { createD1SlackStore } from "./adapters/d1/slack-store";
import { createD1SweepStore } from "./adapters/d1/sweep-store";
import { createDurableRunGateway } from "./adapters/do/run-gateway";
import { createHashingEmbedder } from "./adapters/embed/hashing";
import { createWorkersAiEmbedder } from "./adapters/embed/workers-ai";
import { type BufferedEventBus, createBufferedEventBus } from "./adapters/queue/buffered-event-bus";
import { createQueueEventBus } from "./adapters/queue/event-bus";
import { createMemoryRateLimiter } from "./adapters/ratelimit/memory";
import { createBindingRateLimiter } from "./adapters/ratelimit/workers-binding";
import { createTokenCipher } from "./adapters/slack/token-cipher";
import { createSlackWebApi, SLACK_DEFAULT_API_BASE_URL } from "./adapters/slack/web-api";
import { createDoVectorIndex } from "./adapters/vector/durable-object";
import { createVectorizeIndex, type VectorizeBinding } from "./adapters/vector/vectorize";
import { createTokenVerifier, type TokenVerifier } from "./auth/tokens";
import { createGateRuleCache, type GateRuleCache } from "./features/gates";
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
import { createTeamPolicyCache, type TeamPolicyCache } from "./features/policy";
import type { RunEngineNeeds, RunsService } from "./features/runs";
import type { AuditLogStore } from "./ports/audit-log";
import type { Clock } from "./ports/clock";

export type { Clock };

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
import type { PolicyStore } from "./ports/policy-store";
import type { RateLimiter } from "./ports/rate-limiter";
import type { RunRecordStore } from "./ports/run-record";
import type { SlackApi, SlackOutbox, SlackOutboxMessage, SlackStore } from "./ports/slack";
import type { SweepStore } from "./ports/sweep-store";
import type { TaskMemorySink } from "./ports/task-memory";
import type { VectorIndex } from "./ports/vector-index";

const Config = z.object({
  WARDEN_JWT_SECRET: z.string().min(32, "WARDEN_JWT_SECRET must be at least 32 characters"),
  WARDEN_VERSION: z.string().default("0.0.0"),
  EMBEDDER: z.enum(["hashing", "workers-ai"]).default("hashing"),
  VECTOR_INDEX_KIND: z.enum(["local", "vectorize"]).default("local"),
  /** memory: per-isolate sliding window (local default); binding: the Workers rate-limiting binding */
  RATE_LIMITER_KIND: z.enum(["memory", "binding"]).default("memory"),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  MEMORY_SUMMARY_MAX_CHARS: z.coerce.number().int().min(100).max(20_000).default(2000),
  /** Slack's signing secret; without it every /slack/* request is refused (401) */
  SLACK_SIGNING_SECRET: z.string().min(16).optional(),
  /** the key (any string ≥ 32 chars) bot tokens are encrypted under (AES-GCM); without it no installation is stored */
  SLACK_TOKEN_KEY: z.string().min(32).optional(),
  /** Slack Web API base URL: tests and local runs point it at a loopback server */
  SLACK_API_BASE_URL: z.url().default(SLACK_DEFAULT_API_BASE_URL),
  /** where humans reach this Worker (links in Slack messages to the Run Trace page) */
  PUBLIC_URL: z.string().default(""),
});
export type Config = z.infer<typeof Config>;

export type Deps = {
  config: Config;
  clock: Clock;
  newId: (prefix: string) => string;
  verifyToken: TokenVerifier;
  rateLimiter: RateLimiter;
  events: EventBus;
  /** coalesces high-rate events (the decision log) into one queue batch */
  decisionEvents: BufferedEventBus;
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
  /** memory hints for runs (best-effort, over the memory query) */
  hints: HintsProvider;
  /** the per-run Durable Objects */
  runs: RunsService;
  runRecord: RunRecordStore;
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
  | "vectorIndex"
  | "embedder"
  | "memory"
  | "hints"
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
  const memoryStore = createD1MemoryStore(db, env.DB);
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
    gateRules: o.gateRules ?? createGateRuleCache(gateRuleStore),
    runRecord: o.runRecord ?? createD1RunRecord(db),
    vectorIndex,
    embedder,
    memory,
    hints: o.hints ?? createMemoryHints(memory),
    memoryStore,
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
  const deps: Deps = {
    ...engine,
    clock,
    verifyToken: o.verifyToken ?? createTokenVerifier(config.WARDEN_JWT_SECRET),
    rateLimiter:
      o.rateLimiter ??
      (config.RATE_LIMITER_KIND === "binding"
        ? createBindingRateLimiter(env.RATE_LIMITER, 60)
        : createMemoryRateLimiter(config.RATE_LIMIT_PER_MINUTE, 60)),
    decisionEvents: o.decisionEvents ?? createBufferedEventBus(events),
    learningStore: o.learningStore ?? createD1LearningStore(env.DB),
    taskMemory: o.taskMemory ?? createTaskMemorySink(memory, () => clock.now()),
    eventDeadLetters: o.eventDeadLetters ?? createD1EventDeadLetterStore(db),
    auditLog: o.auditLog ?? createD1AuditLog(db),
    sweepStore: o.sweepStore ?? createD1SweepStore(db),
    memoryMaintenance: o.memoryMaintenance ?? createCardRefreshingMaintenance(createD1MemoryMaintenance(db), memory),
    memoryIndexSync: o.memoryIndexSync ?? createIndexSync(vectorIndex),
    metricsStore: o.metricsStore ?? createD1MetricsStore(db),
    overviewStore: o.overviewStore ?? createD1OverviewStore(db),
    runs: o.runs ?? createDurableRunGateway(env.RUN),
    sessions: o.sessions ?? createSessions({ store: memoryStore, memory, events, newId: engine.newId }),
    slackStore:
      o.slackStore ?? createD1SlackStore(db, config.SLACK_TOKEN_KEY ? createTokenCipher(config.SLACK_TOKEN_KEY) : null),
    slackApi: o.slackApi ?? createSlackWebApi(config.SLACK_API_BASE_URL),
    slackOutbox: o.slackOutbox ?? {
      send: async (messages) => {
        if (messages.length)
          await (env.SLACK_OUTBOX as unknown as Queue<SlackOutboxMessage>).sendBatch(
            messages.map((body) => ({ body })),
          );
      },
    },
  };
  if (Object.keys(overrides).length === 0) cache.set(env, deps);
  return deps;
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
    runRecord: p.runRecord,
    events: p.events,
    hints: p.hints,
    newId: p.newId,
  };
  engineCache.set(env, needs);
  return needs;
}
