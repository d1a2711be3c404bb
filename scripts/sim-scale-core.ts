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
  /** EVENTS consumer invocations writing the decision log at once, each one batch (≤ 100 messages or 1 s) */
  writerIsolates: 50,
  /**
   * EVENTS messages per decision in the do layout: the journal flush publishes only escalations (their one subscriber
   * audits them). Worst case: every failed step runs out its attempts (3), so one decision in three escalates.
   */
  escalationsPerDecision: 1 / 3,
  /** counter rows per D1 statement (100 bound parameters ÷ 8 per row) */
  counterRowsPerStatement: 12,
} as const;

/**
 * Where the decision log and memory live: "d1" — one policy_decision row per decision, memory rows in D1 (before
 * issue 27); "r2" — the decision log as NDJSON objects in R2 (counters and a per-flush manifest in D1), memory rows
 * still in D1; "do" — issue 27 complete: the log on R2 and each team's memory rows in its own Durable Object, with
 * only the teams past the local hot-set limit on Vectorize (VECTORIZE_TEAMS).
 */
export type Layout = "d1" | "r2" | "do";

/** The layouts in the order they were built. */
export const LAYOUTS: readonly Layout[] = ["d1", "r2", "do"];

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

/** What memory costs D1 and Vectorize in one layout: D1 bytes and writes, and the teams (with vectors) on Vectorize. */
function memoryPlacement(f: Fleet, layout: Layout) {
  const decisionsPerSecond = f.teams * f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  const inD1 = layout !== "do";
  // before the per-team switch the whole deployment was either local or Vectorize: count every team on Vectorize
  const vectorizeTeams = layout !== "do" || f.memoriesPerTeam > LIMITS.localIndexHot ? f.teams : 0;
  return {
    d1Bytes: inD1 ? f.teams * f.memoriesPerTeam * SHAPE.memoryRowBytes : 0,
    d1WritesPerSecond: inD1 ? decisionsPerSecond / SHAPE.decisionsPerMemoryWrite : 0,
    vectorizeTeams,
    vectorizeVectors: vectorizeTeams * f.memoriesPerTeam,
    where: inD1 ? "memory rows in D1" : "memory rows in each team's object",
  };
}

/** The load on each limit for one fleet, with Warden's response at each threshold. */
export function project(f: Fleet, layout: Layout = "do"): Load[] {
  const decisionsPerSecond = f.teams * f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  const log = decisionLogOnD1(f, layout);
  const memory = memoryPlacement(f, layout);
  // a team on Vectorize (do layout) keeps its rows in its object but no vectors
  const vectorsInObject = layout !== "do" || memory.vectorizeTeams === 0;
  const teamIndexBytes = f.memoriesPerTeam * (SHAPE.memoryRowBytes + (vectorsInObject ? SHAPE.vectorBytes : 0));
  const teamRequests = f.agentsPerTeam * f.decisionsPerAgentPerSecond;
  // before the journal every decision crossed EVENTS on its way to the log; the journal writes the log itself
  const eventsPerDecision = layout === "do" ? SHAPE.escalationsPerDecision : 1;
  return [
    {
      limit: "D1 database size (decision log + memory rows in one database)",
      utilisation: (log.bytes + memory.d1Bytes) / LIMITS.d1DatabaseBytes,
      detail: `${gb(log.bytes)} log (${layout === "d1" ? `${SHAPE.decisionRetentionDays} d of rows` : "counters + manifest"}) + ${gb(memory.d1Bytes)} ${memory.where}`,
      action:
        layout === "d1"
          ? "decision log out of D1 into R2 (issue 27: the r2 layout)"
          : layout === "r2"
            ? "memory rows to the team's Durable Object SQLite (issue 27: the do layout)"
            : "decision counters per team into the team's object, or one D1 database per group of teams",
    },
    {
      limit: "D1 single-writer throughput (decision log + memory writes)",
      utilisation: (log.statementsPerSecond + memory.d1WritesPerSecond) / LIMITS.d1WritesPerSecond,
      detail: `${log.detail} + ${fmt(memory.d1WritesPerSecond)} memory rows/s in D1`,
      action:
        layout === "d1"
          ? "already batched (one D1 batch per queue batch, 5 rows per insert), so this one-row-per-write figure is a floor; next: the r2 layout"
          : layout === "r2"
            ? "memory writes to the team's Durable Object (the do layout); then counters per team in the team object"
            : "decision counters per team in the team object (their upserts leave D1), or a D1 database per group of teams",
    },
    {
      limit: "Queue throughput (EVENTS: decisions, or only escalations from the journal)",
      utilisation: (decisionsPerSecond * eventsPerDecision) / LIMITS.queueMessagesPerSecond,
      detail: `${fmt(decisionsPerSecond * eventsPerDecision)} msgs/s${layout === "do" ? " (escalations only, worst case 1 in 3)" : ""}, consumer batches of ${LIMITS.queueBatch}`,
      action: "pack many events per message (sendBatch), then one queue per shard",
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
      action:
        "the team joins VECTORIZE_TEAMS: its vectors move to Vectorize (own namespace and id scope), its rows stay in its object",
    },
    {
      limit: "Durable Object storage (per-team index)",
      utilisation: teamIndexBytes / LIMITS.doStorageBytes,
      detail: `${gb(teamIndexBytes)} per team (${vectorsInObject ? "rows + vectors" : "rows; vectors in Vectorize"})`,
      action: "vectors live in Vectorize only; the DO keeps metadata",
    },
    {
      limit: "Vectorize vectors per index",
      utilisation: memory.vectorizeVectors / LIMITS.vectorizeVectorsPerIndex,
      detail: `${fmt(memory.vectorizeVectors)} vectors of ${fmt(memory.vectorizeTeams)} teams on Vectorize${layout === "do" ? " (only teams past the hot set)" : " (all teams)"}`,
      action: "one index per group of teams (indexes per account: 50,000), or one index per large team",
    },
    {
      limit: "Vectorize namespaces per index",
      utilisation: memory.vectorizeTeams / LIMITS.vectorizeNamespacesPerIndex,
      detail: `${fmt(memory.vectorizeTeams)} teams on Vectorize, one namespace each`,
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
  layout: Layout = "do",
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
  layout: Layout = "do",
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
