// The pure core of `npm run sim:scale`: projects a fleet's load onto each documented Cloudflare limit and finds what breaks first.

/** Documented limits (see docs/scaling.md for the source page of each figure). */
export const LIMITS = {
  /** D1 "Limits": maximum database size, Workers Paid */
  d1DatabaseBytes: 10e9,
  /** D1 "Limits" FAQ: one database runs queries one at a time; ~1,000 queries/s at 1 ms per query */
  d1WritesPerSecond: 1000,
  /** Durable Objects "Limits": storage per SQLite-backed Durable Object */
  doStorageBytes: 10e9,
  /** Durable Objects FAQ: soft limit of about 1,000 requests/s for one object */
  doRequestsPerSecond: 1000,
  /** Vectorize "Limits": maximum vectors per index */
  vectorizeVectorsPerIndex: 10_000_000,
  /** Vectorize "Limits": maximum namespaces per index (Workers Paid) */
  vectorizeNamespacesPerIndex: 50_000,
  /** Vectorize "Limits": maximum upsert batch from a Worker */
  vectorizeUpsertBatch: 1000,
  /** Queues "Limits": per-queue message throughput */
  queueMessagesPerSecond: 5000,
  /** Queues "Limits": maximum consumer batch size */
  queueBatch: 100,
  /** Warden's own: the VectorIndexDO's in-memory scan keeps at most this many hot memories per team */
  localIndexHot: 60_000,
} as const;

/** Per-item sizes and rates Warden's schema implies (assumptions, stated in docs/scaling.md). */
export const SHAPE = {
  decisionRowBytes: 400,
  memoryRowBytes: 1200,
  /** float32 × 384 dimensions, stored beside the memory row in the index */
  vectorBytes: 384 * 4,
  /** each agent writes one memory per this many decisions */
  decisionsPerMemoryWrite: 20,
  /** a run's requests per decision: lease/heartbeat/complete spread over its decisions */
  runRequestsPerDecision: 1.5,
  /** retention of the decision log, in days */
  decisionRetentionDays: 30,
  /** decision_counter row (team, hour, class, mode, action + 3 counts) with its index entry */
  counterRowBytes: 120,
  /** distinct (class, mode, action) a team uses in one hour (and at most in one flush) */
  counterKeysPerTeamHour: 8,
  /** decision_log_batch row (one per flush), kept while the queue may redeliver (EVENTS keeps 4 days; pruned after 5) */
  manifestRowBytes: 100,
  manifestRetentionDays: 5,
  /** isolates writing the decision log at once, each flushing at most once a second (DECISION_LOG_DELAY_MS) */
  writerIsolates: 50,
  /** counter rows per D1 statement (100 bound parameters ÷ 8 per row) */
  counterRowsPerStatement: 12,
} as const;

/**
 * Where the decision log lives: "d1" — one policy_decision row per decision (before issue 27); "r2" — NDJSON objects
 * in R2, counters and a per-flush manifest in D1 (issue 27). Memory rows are in D1 in both.
 */
export type Layout = "d1" | "r2";

export type Fleet = {
  teams: number;
  agentsPerTeam: number;
  decisionsPerAgentPerSecond: number;
  memoriesPerTeam: number;
};

export type Load = {
  limit: string;
  /** load ÷ limit; ≥ 1 means broken */
  utilisation: number;
  detail: string;
  /** what Warden does once utilisation reaches 1 */
  action: string;
};

const DAY = 86_400;

/** What the decision log costs D1 in one layout: bytes kept, statements per second. */
function decisionLogOnD1(f: Fleet, layout: Layout) {
  const decisionsPerSecond = f.teams * f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  if (layout === "d1")
    return {
      bytes: decisionsPerSecond * DAY * SHAPE.decisionRetentionDays * SHAPE.decisionRowBytes,
      statementsPerSecond: decisionsPerSecond,
      detail: `${fmt(decisionsPerSecond)} decision rows/s`,
    };
  const teamRate = f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  // a team's decisions of one second spread over at most writerIsolates flushes; each flush adds at most one row per key
  const teamFlushesPerSecond = Math.min(teamRate, SHAPE.writerIsolates);
  const counterRowsPerSecond = f.teams * Math.min(teamRate, teamFlushesPerSecond * SHAPE.counterKeysPerTeamHour);
  const flushesPerSecond = Math.min(decisionsPerSecond, SHAPE.writerIsolates);
  const counterRowsKept =
    f.teams * 24 * SHAPE.decisionRetentionDays * Math.min(teamRate * 3600, SHAPE.counterKeysPerTeamHour);
  return {
    bytes:
      counterRowsKept * SHAPE.counterRowBytes +
      flushesPerSecond * DAY * SHAPE.manifestRetentionDays * SHAPE.manifestRowBytes,
    statementsPerSecond: counterRowsPerSecond / SHAPE.counterRowsPerStatement + flushesPerSecond,
    detail: `${fmt(counterRowsPerSecond)} counter rows/s in ${fmt(counterRowsPerSecond / SHAPE.counterRowsPerStatement + flushesPerSecond)} statements/s, 0 rows per decision`,
  };
}

/** The load on each limit for one fleet, with Warden's response at each threshold. */
export function project(f: Fleet, layout: Layout = "r2"): Load[] {
  const decisionsPerSecond = f.teams * f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  const memoryWritesPerSecond = decisionsPerSecond / SHAPE.decisionsPerMemoryWrite;
  const log = decisionLogOnD1(f, layout);
  const memoryBytes = f.teams * f.memoriesPerTeam * SHAPE.memoryRowBytes;
  const teamIndexBytes = f.memoriesPerTeam * (SHAPE.memoryRowBytes + SHAPE.vectorBytes);
  const teamRequests = f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  return [
    {
      limit: "D1 database size (decision log + memory rows in one database)",
      utilisation: (log.bytes + memoryBytes) / LIMITS.d1DatabaseBytes,
      detail: `${gb(log.bytes)} log (${layout === "d1" ? `${SHAPE.decisionRetentionDays} d of rows` : "counters + manifest"}) + ${gb(memoryBytes)} memory rows`,
      action:
        layout === "d1"
          ? "decision log out of D1 into R2 (issue 27: the r2 layout)"
          : "memory rows to the team's Durable Object SQLite (issue 27, next threshold; docs/storage.md names its keys)",
    },
    {
      limit: "D1 single-writer throughput (decision log + memory writes)",
      utilisation: (log.statementsPerSecond + memoryWritesPerSecond) / LIMITS.d1WritesPerSecond,
      detail: `${log.detail} + ${fmt(memoryWritesPerSecond)} memory rows/s, one row per write`,
      action:
        layout === "d1"
          ? "already batched (one D1 batch per queue batch, 5 rows per insert), so this one-row-per-write figure is a floor; next: the r2 layout"
          : "memory writes to the team's Durable Object (next threshold); then counters per team in the team object",
    },
    {
      limit: "Queue throughput (decision log messages)",
      utilisation: decisionsPerSecond / LIMITS.queueMessagesPerSecond,
      detail: `${fmt(decisionsPerSecond)} msgs/s, consumer batches of ${LIMITS.queueBatch}`,
      action: "pack many decisions per message (sendBatch), then one queue per shard",
    },
    {
      limit: "Durable Object request rate (one run)",
      utilisation: (f.decisionsPerAgentPerSecond * SHAPE.runRequestsPerDecision) / LIMITS.doRequestsPerSecond,
      detail: `${fmt(f.decisionsPerAgentPerSecond * SHAPE.runRequestsPerDecision)} req/s per RunDO`,
      action: "none needed: one RunDO per run spreads by construction",
    },
    {
      limit: "Durable Object request rate (per-team vector index)",
      utilisation: (teamRequests / SHAPE.decisionsPerMemoryWrite + teamRequests * 0.1) / LIMITS.doRequestsPerSecond,
      detail: `${fmt(teamRequests / SHAPE.decisionsPerMemoryWrite)} writes/s + ${fmt(teamRequests * 0.1)} queries/s per team index`,
      action: "read replicas of the team index (one DO per shard of the team's memories), or Vectorize for that team",
    },
    {
      limit: "Local index hot set (per team)",
      utilisation: f.memoriesPerTeam / LIMITS.localIndexHot,
      detail: `${fmt(f.memoriesPerTeam)} memories per team vs ${fmt(LIMITS.localIndexHot)} hot`,
      action: "the team moves to Vectorize (namespace per team); the DO keeps only the hot set as a cache",
    },
    {
      limit: "Durable Object storage (per-team index)",
      utilisation: teamIndexBytes / LIMITS.doStorageBytes,
      detail: `${gb(teamIndexBytes)} rows + vectors per team`,
      action: "vectors live in Vectorize only; the DO keeps metadata",
    },
    {
      limit: "Vectorize vectors per index (all teams on Vectorize)",
      utilisation: (f.teams * f.memoriesPerTeam) / LIMITS.vectorizeVectorsPerIndex,
      detail: `${fmt(f.teams * f.memoriesPerTeam)} vectors`,
      action: "one index per group of teams (indexes per account: 50,000), or one index per large team",
    },
    {
      limit: "Vectorize namespaces per index",
      utilisation: f.teams / LIMITS.vectorizeNamespacesPerIndex,
      detail: `${fmt(f.teams)} teams, one namespace each`,
      action: "a second index",
    },
  ];
}

/** The limit with the highest utilisation: what breaks first for this fleet. */
export function firstToBreak(loads: Load[]): Load {
  return loads.reduce((a, b) => (b.utilisation > a.utilisation ? b : a));
}

/**
 * The smallest value of one fleet dimension (doubling from `from`) at which `limit` reaches utilisation 1, or
 * undefined if it does not within `max`.
 */
export function breakingPoint(
  base: Fleet,
  dimension: keyof Fleet,
  limit: string,
  from: number,
  max: number,
  layout: Layout = "r2",
): number | undefined {
  for (let v = from; v <= max; v *= 2) {
    const load = project({ ...base, [dimension]: v }, layout).find((l) => l.limit === limit);
    if (load && load.utilisation >= 1) return v;
  }
  return undefined;
}

/**
 * The smallest whole value of one fleet dimension at which `limit` reaches utilisation 1 (doubling, then bisection),
 * or undefined if it does not within `max`.
 */
export function exactBreakingPoint(
  base: Fleet,
  dimension: keyof Fleet,
  limit: string,
  max: number,
  layout: Layout = "r2",
): number | undefined {
  const broken = (v: number) =>
    (project({ ...base, [dimension]: v }, layout).find((l) => l.limit === limit)?.utilisation ?? 0) >= 1;
  let hi = 1;
  while (hi <= max && !broken(hi)) hi *= 2;
  if (hi > max && !broken(max)) return undefined;
  hi = Math.min(hi, max);
  let lo = Math.floor(hi / 2);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (broken(mid)) hi = mid;
    else lo = mid;
  }
  return broken(lo) && lo >= 1 ? lo : hi;
}

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(n < 10 ? 2 : 0);
}
function gb(bytes: number): string {
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
