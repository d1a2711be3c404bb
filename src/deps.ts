// makeDeps(env): the only place configuration is validated and adapters are built.
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { createD1EventDeadLetterStore } from "./adapters/d1/event-dead-letters";
import { createD1GateRuleStore } from "./adapters/d1/gate-rule-store";
import { createD1LearningStore } from "./adapters/d1/learning-store";
import { createD1MemoryMaintenance } from "./adapters/d1/memory-maintenance";
import { createD1MetricsStore } from "./adapters/d1/metrics-store";
import { createD1PolicyStore } from "./adapters/d1/policy-store";
import { createD1RunRecord } from "./adapters/d1/run-record";
import { createD1SweepStore } from "./adapters/d1/sweep-store";
import { createDurableRunGateway } from "./adapters/do/run-gateway";
import { createUnwiredTaskMemorySink } from "./adapters/memory/unwired-task-memory";
import { type BufferedEventBus, createBufferedEventBus } from "./adapters/queue/buffered-event-bus";
import { createQueueEventBus } from "./adapters/queue/event-bus";
import { createMemoryRateLimiter } from "./adapters/ratelimit/memory";
import { createBindingRateLimiter } from "./adapters/ratelimit/workers-binding";
import { createTokenVerifier, type TokenVerifier } from "./auth/tokens";
import { createGateRuleCache, type GateRuleCache } from "./features/gates/gate-rule-cache";
import { createTeamPolicyCache, type TeamPolicyCache } from "./features/policy/team-policy-cache";
import type { EventBus, WardenEvent } from "./ports/event-bus";
import type { EventDeadLetterStore } from "./ports/event-dead-letters";
import type { GateRuleStore } from "./ports/gate-rule-store";
import { type HintsProvider, noHints } from "./ports/hints";
import type { LearningStore } from "./ports/learning-store";
import type { MemoryIndexSync, MemoryMaintenance } from "./ports/memory-maintenance";
import type { MetricsStore } from "./ports/metrics-store";
import type { PolicyStore } from "./ports/policy-store";
import type { RateLimiter } from "./ports/rate-limiter";
import type { RunGateway } from "./ports/run-gateway";
import type { RunRecordStore } from "./ports/run-record";
import type { SweepStore } from "./ports/sweep-store";
import type { TaskMemorySink } from "./ports/task-memory";

const Config = z.object({
  WARDEN_JWT_SECRET: z.string().min(32, "WARDEN_JWT_SECRET must be at least 32 characters"),
  WARDEN_VERSION: z.string().default("0.0.0"),
  EMBEDDER: z.enum(["hashing", "workers-ai"]).default("hashing"),
  VECTOR_INDEX_KIND: z.enum(["local", "vectorize"]).default("local"),
  /** memory: per-isolate sliding window (local default); binding: the Workers rate-limiting binding */
  RATE_LIMITER_KIND: z.enum(["memory", "binding"]).default("memory"),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** "1" only on the bench's throw-away server: exposes /__bench/* hooks (never set in wrangler.toml) */
  WARDEN_BENCH_HOOKS: z.enum(["0", "1"]).default("0"),
});
export type Config = z.infer<typeof Config>;

export type Clock = { now(): number };

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
  /** YARLI memories from task.failed / task.blocked (unwired until the memory feature's write use-case is connected) */
  taskMemory: TaskMemorySink;
  eventDeadLetters: EventDeadLetterStore;
  sweepStore: SweepStore;
  memoryMaintenance: MemoryMaintenance;
  /** removes memories that left the hot tier from the vector index (no-op until the memory feature connects it) */
  memoryIndexSync: MemoryIndexSync;
  metricsStore: MetricsStore;
  /** memory hints for runs; noHints until the memory feature provides one */
  hints: HintsProvider;
  /** the per-run Durable Objects */
  runs: RunGateway;
  runRecord: RunRecordStore;
  gateRuleStore: GateRuleStore;
  gateRules: GateRuleCache;
};

const unwiredIndexSync: MemoryIndexSync = {
  async remove(teamId, ids) {
    console.warn(
      JSON.stringify({ level: "warn", msg: "memoryIndexSync not connected", team_id: teamId, ids: ids.length }),
    );
  },
};

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
  const events = createQueueEventBus(env.EVENTS as unknown as Queue<WardenEvent>);
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
    taskMemory: createUnwiredTaskMemorySink(),
    eventDeadLetters: createD1EventDeadLetterStore(env.DB),
    sweepStore: createD1SweepStore(env.DB),
    memoryMaintenance: createD1MemoryMaintenance(env.DB),
    memoryIndexSync: unwiredIndexSync,
    metricsStore: createD1MetricsStore(env.DB),
    hints: noHints,
    runs: createDurableRunGateway(env.RUN),
    runRecord: createD1RunRecord(db),
    gateRuleStore,
    gateRules: createGateRuleCache(gateRuleStore),
    ...overrides,
  };
  if (Object.keys(overrides).length === 0) cache.set(env, deps);
  return deps;
}
