// makeDeps(env): the only place configuration is validated and adapters are built.
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { createD1ApiKeyStore } from "./adapters/d1/api-key-store";
import { createD1AuditLog } from "./adapters/d1/audit-log";
import { createD1EventDeadLetterStore } from "./adapters/d1/event-dead-letters";
import { createD1GateRuleStore } from "./adapters/d1/gate-rule-store";
import { createD1LearningStore } from "./adapters/d1/learning-store";
import { createD1MemoryMaintenance } from "./adapters/d1/memory-maintenance";
import { createD1MemoryStore } from "./adapters/d1/memory-store";
import { createD1MetricsStore } from "./adapters/d1/metrics-store";
import { createD1PolicyStore } from "./adapters/d1/policy-store";
import { createD1RunRecord } from "./adapters/d1/run-record";
import { createD1SweepStore } from "./adapters/d1/sweep-store";
import { createD1TeamLimitStore } from "./adapters/d1/team-limits";
import { createDurableRunGateway } from "./adapters/do/run-gateway";
import { createHashingEmbedder } from "./adapters/embed/hashing";
import { createWorkersAiEmbedder } from "./adapters/embed/workers-ai";
import { type BufferedEventBus, createBufferedEventBus } from "./adapters/queue/buffered-event-bus";
import { createQueueEventBus } from "./adapters/queue/event-bus";
import { createMemoryRateLimiter } from "./adapters/ratelimit/memory";
import { createUpstashRateLimiter } from "./adapters/ratelimit/upstash";
import { createBindingRateLimiter } from "./adapters/ratelimit/workers-binding";
import { createDoVectorIndex } from "./adapters/vector/durable-object";
import { createVectorizeIndex, type VectorizeBinding } from "./adapters/vector/vectorize";
import { type ApiKeyAuth, createApiKeyAuth } from "./auth/api-keys";
import { createExternalVerifier } from "./auth/external";
import { createTokenVerifier, type SigningKey, type TokenVerifier } from "./auth/tokens";
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

import { createTeamLimits, DEFAULT_LIMITS, DEFAULT_PREAUTH_PER_MINUTE } from "./http/rate-limits";
import type { HttpLimits } from "./http/types";
import type { ApiKeyStore } from "./ports/api-key-store";
import type { Embedder } from "./ports/embedder";
import type { EventBus, WardenEvent } from "./ports/event-bus";
import type { EventDeadLetterStore } from "./ports/event-dead-letters";
import type { GateRuleStore } from "./ports/gate-rule-store";
import type { HintsProvider } from "./ports/hints";
import type { LearningStore } from "./ports/learning-store";
import type { MemoryIndexSync, MemoryMaintenance } from "./ports/memory-maintenance";
import type { MetricsStore } from "./ports/metrics-store";
import type { PolicyStore } from "./ports/policy-store";
import type { RateLimiter } from "./ports/rate-limiter";
import type { RunRecordStore } from "./ports/run-record";
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
  MEMORY_SUMMARY_MAX_CHARS: z.coerce.number().int().min(100).max(20_000).default(2000),
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

const cache = new WeakMap<object, Deps>();

/** One Deps per env object (per isolate), so caches (tokens, compiled profiles) live across requests. */
export function makeDeps(env: Env, overrides: Partial<Deps> = {}): Deps {
  const cached = Object.keys(overrides).length === 0 ? cache.get(env) : undefined;
  if (cached) return cached;
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  const db = drizzle(env.DB);
  const policyStore = createD1PolicyStore(db);
  const events = overrides.events ?? createQueueEventBus(env.EVENTS as unknown as Queue<WardenEvent>);
  const vectorIndex = overrides.vectorIndex ?? buildVectorIndex(parsed.data, env);
  const embedder = overrides.embedder ?? buildEmbedder(parsed.data, env);
  const memoryStore = createD1MemoryStore(db, env.DB);
  const memory =
    overrides.memory ??
    createMemoryService({
      store: memoryStore,
      index: vectorIndex,
      embedder,
      events,
      newId: overrides.newId ?? newId,
      summaryMaxChars: parsed.data.MEMORY_SUMMARY_MAX_CHARS,
    });
  const gateRuleStore = createD1GateRuleStore(db);
  const teamLimitStore = overrides.teamLimitStore ?? createD1TeamLimitStore(db);
  const apiKeyStore = overrides.apiKeyStore ?? createD1ApiKeyStore(db);
  const deps: Deps = {
    config: parsed.data,
    clock: systemClock,
    newId,
    verifyToken: buildVerifier(parsed.data),
    signingKey: { kid: parsed.data.WARDEN_JWT_KID, secret: parsed.data.WARDEN_JWT_SECRET },
    rateLimiter: overrides.rateLimiter ?? buildRateLimiter(parsed.data, env),
    limits: {
      enabled: parsed.data.RATE_LIMITS === "on",
      preauthPerMinute: parsed.data.RATE_LIMIT_PREAUTH_PER_MINUTE,
      team: createTeamLimits(teamLimitStore, {
        ...DEFAULT_LIMITS,
        other: { ...DEFAULT_LIMITS.other, perTeam: parsed.data.RATE_LIMIT_PER_MINUTE },
      }),
    },
    teamLimitStore,
    apiKeyStore,
    apiKeys: createApiKeyAuth(apiKeyStore),
    events,
    decisionEvents: createBufferedEventBus(events),
    policyStore,
    policies: createTeamPolicyCache(policyStore),
    learningStore: createD1LearningStore(env.DB),
    taskMemory: createTaskMemorySink(memory, () => deps.clock.now()),
    eventDeadLetters: createD1EventDeadLetterStore(env.DB),
    auditLog: createD1AuditLog(db),
    sweepStore: createD1SweepStore(env.DB),
    memoryMaintenance: createCardRefreshingMaintenance(createD1MemoryMaintenance(env.DB), memory),
    memoryIndexSync: createIndexSync(vectorIndex),
    metricsStore: createD1MetricsStore(env.DB),
    hints: createMemoryHints(memory),
    runs: createDurableRunGateway(env.RUN),
    runRecord: createD1RunRecord(db),
    gateRuleStore,
    gateRules: createGateRuleCache(gateRuleStore),
    vectorIndex,
    embedder,
    memory,
    sessions: createSessions({ store: memoryStore, memory, events, newId: overrides.newId ?? newId }),
    ...overrides,
  };
  if (Object.keys(overrides).length === 0) cache.set(env, deps);
  return deps;
}

/** What a run's Durable Object uses, and nothing else: the run engine's needs picked from the isolate's deps. */
export function makeRunEngineNeeds(env: Env): RunEngineNeeds {
  const d = makeDeps(env);
  return {
    policies: d.policies,
    gateRules: d.gateRules,
    policyStore: d.policyStore,
    gateRuleStore: d.gateRuleStore,
    runRecord: d.runRecord,
    events: d.events,
    hints: d.hints,
    newId: d.newId,
  };
}
