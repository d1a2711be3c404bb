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
import { createD1PolicyStore } from "./adapters/d1/policy-store";
import { createD1RunRecord } from "./adapters/d1/run-record";
import { createD1SweepStore } from "./adapters/d1/sweep-store";
import { createDurableRunGateway } from "./adapters/do/run-gateway";
import { createHashingEmbedder } from "./adapters/embed/hashing";
import { createWorkersAiEmbedder } from "./adapters/embed/workers-ai";
import { type BufferedEventBus, createBufferedEventBus } from "./adapters/queue/buffered-event-bus";
import { createQueueEventBus } from "./adapters/queue/event-bus";
import { createMemoryRateLimiter } from "./adapters/ratelimit/memory";
import { createBindingRateLimiter } from "./adapters/ratelimit/workers-binding";
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
import type { MetricsStore } from "./ports/metrics-store";
import type { PolicyStore } from "./ports/policy-store";
import type { RateLimiter } from "./ports/rate-limiter";
import type { RunRecordStore } from "./ports/run-record";
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
  const deps: Deps = {
    config: parsed.data,
    clock: systemClock,
    newId,
    verifyToken: createTokenVerifier(parsed.data.WARDEN_JWT_SECRET),
    rateLimiter:
      parsed.data.RATE_LIMITER_KIND === "binding"
        ? createBindingRateLimiter(env.RATE_LIMITER, 60)
        : createMemoryRateLimiter(parsed.data.RATE_LIMIT_PER_MINUTE, 60),
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
    runs: createDurableRunGateway(env.RUN, parsed.data.WARDEN_JWT_SECRET),
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
