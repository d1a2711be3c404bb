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
} as const;

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

/** The load on each limit for one fleet, with Warden's response at each threshold. */
export function project(f: Fleet): Load[] {
  const decisionsPerSecond = f.teams * f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  const memoryWritesPerSecond = decisionsPerSecond / SHAPE.decisionsPerMemoryWrite;
  const logBytes = decisionsPerSecond * DAY * SHAPE.decisionRetentionDays * SHAPE.decisionRowBytes;
  const memoryBytes = f.teams * f.memoriesPerTeam * SHAPE.memoryRowBytes;
  const teamIndexBytes = f.memoriesPerTeam * (SHAPE.memoryRowBytes + SHAPE.vectorBytes);
  const teamRequests = f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  return [
    {
      limit: "D1 database size (decision log + memory rows in one database)",
      utilisation: (logBytes + memoryBytes) / LIMITS.d1DatabaseBytes,
      detail: `${gb(logBytes)} log (${SHAPE.decisionRetentionDays} d) + ${gb(memoryBytes)} memory rows`,
      action:
        "decision log out of D1 into an append-only store (Queues → R2 / Analytics Engine); memory rows to per-team DO SQLite",
    },
    {
      limit: "D1 single-writer throughput (decision log + memory writes)",
      utilisation: (decisionsPerSecond + memoryWritesPerSecond) / LIMITS.d1WritesPerSecond,
      detail: `${fmt(decisionsPerSecond)} decision rows/s + ${fmt(memoryWritesPerSecond)} memory rows/s, one row per write`,
      action:
        "already batched (one D1 batch per queue batch, 5 rows per insert), so this one-row-per-write figure is a floor; next: shard the log by team across D1 databases",
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
): number | undefined {
  for (let v = from; v <= max; v *= 2) {
    const load = project({ ...base, [dimension]: v }).find((l) => l.limit === limit);
    if (load && load.utilisation >= 1) return v;
  }
  return undefined;
}

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(n < 10 ? 2 : 0);
}
function gb(bytes: number): string {
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
