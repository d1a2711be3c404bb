// `npm run fleet`: the local fleet load of issue 27 (not timed, not in npm test). 200 teams, each with its own token,
// decide and write memory concurrently against one local runtime; afterwards every acknowledged decision must be in
// its team's decision-log objects (and counted once by the log's reader), each team's memory found by its own token
// only, and D1 must hold no memory rows (they live in each team's object once the memory move has landed).
// Options: --teams N (200) --duration-s N (60) --memory-every N (a memory write per N decisions, 5).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { readDevVars } from "../../scripts/dev-vars.mjs";
import { mintToken } from "../../src/auth/mint.ts";
import { SCOPES } from "../../src/auth/tokens.ts";
import { loggedDecisions } from "../drill/ledger.ts";
import { ledgerProblems } from "../drill/ledger-core.ts";
import { spawnLocalServer } from "../node-server/server-process.ts";
import { type DrainEnd, drainRound, startDrain } from "./drain-core.ts";

const { values } = parseArgs({
  options: {
    teams: { type: "string", default: "200" },
    "duration-s": { type: "string", default: "60" },
    "memory-every": { type: "string", default: "5" },
  },
});
const TEAMS = Number(values.teams);
const DURATION_MS = Number(values["duration-s"]) * 1000;
const MEMORY_EVERY = Number(values["memory-every"]);
const RUN = Date.now().toString(36);
const t0 = Date.now();
const say = (msg: string) => console.log(`[fleet ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
/** when the drain gives up although some team is short: totals still for this many rounds, or this long */
const DRAIN_LIMITS = { stillLimit: 2, capMs: 180_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const server = await spawnLocalServer({ name: "fleet" });
process.on("exit", () => server.stop());
await server.ready;
say(`server up at ${server.url}`);
const secret = readDevVars(join(import.meta.dirname, "../../.dev.vars")).WARDEN_JWT_SECRET as string;

type Team = {
  id: string;
  token: string;
  acked: Map<string, number>;
  memories: { namespace: string; id: string; text: string }[];
};
const teams: Team[] = await Promise.all(
  Array.from({ length: TEAMS }, async (_, i) => {
    const id = `fleet-${RUN}-${i}`;
    return {
      id,
      token: await mintToken({ secret, teamId: id, scopes: [...SCOPES], sub: "fleet" }),
      acked: new Map(),
      memories: [],
    };
  }),
);
const latency = { decide: [] as number[], write: [] as number[] };
let limited = 0;

/** One call as `team`; a 429 waits out its Retry-After (counted) and goes again. */
async function api(team: Team, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  for (;;) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${team.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status !== 429) return { status: res.status, json: text ? JSON.parse(text) : null };
    limited++;
    await sleep(1000 * Math.min(5, Number(res.headers.get("retry-after") ?? 1)));
  }
}

async function drive(team: Team, until: number) {
  for (let k = 0; Date.now() < until; k++) {
    let at = Date.now();
    const d = await api(team, "POST", "/v1/policy/decide", {
      memrl_mode: "observe",
      failure_class: ["timeout", "rate_limit", "tool_error", "transient"][k % 4],
      attempt: 1 + (k % 3),
      max_attempts: 3,
    });
    if (d.status !== 200) throw new Error(`${team.id} decide → ${d.status} ${JSON.stringify(d.json)}`);
    latency.decide.push(Date.now() - at);
    team.acked.set(d.json.decision_id, Date.now());
    if (k % MEMORY_EVERY !== 0) continue;
    const namespace = `team/${team.id}/project/f${k}`;
    const text = `fleet note ${k} of ${team.id}: the ${["cache", "queue", "lease", "gate"][k % 4]} path held under load`;
    at = Date.now();
    const w = await api(team, "POST", "/v1/memory", { namespace, class: "episodic", text });
    if (w.status !== 201 && w.status !== 200)
      throw new Error(`${team.id} memory → ${w.status} ${JSON.stringify(w.json)}`);
    latency.write.push(Date.now() - at);
    team.memories.push({ namespace, id: w.json.id, text });
  }
}

const start = Date.now();
await Promise.all(teams.map((t) => drive(t, start + DURATION_MS)));
const drivenS = (Date.now() - start) / 1000;
const decisions = teams.reduce((n, t) => n + t.acked.size, 0);
const writes = teams.reduce((n, t) => n + t.memories.length, 0);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? 0;
say(
  `driven ${drivenS.toFixed(0)} s: ${decisions} decisions (${(decisions / drivenS).toFixed(0)}/s, p50 ${pct(latency.decide, 0.5)} ms, ` +
    `p95 ${pct(latency.decide, 0.95)} ms), ${writes} memory writes (${(writes / drivenS).toFixed(1)}/s, p50 ` +
    `${pct(latency.write, 0.5)} ms, p95 ${pct(latency.write, 0.95)} ms), ${limited} answers 429`,
);

/** Calls `f` for every item, `width` at a time. */
async function each<T>(items: T[], width: number, f: (x: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let x = queue.shift(); x !== undefined; x = queue.shift()) await f(x);
    }),
  );
}

/** The decisions the log's reader counts for a team since the load began (POST /v1/policy/replay `total`). */
async function readerTotal(team: Team): Promise<number> {
  const profile = await api(team, "GET", "/v1/policy/profile");
  const replay = await api(team, "POST", "/v1/policy/replay", {
    profile: profile.json,
    since: new Date(start - 60_000).toISOString(),
  });
  return replay.json.total;
}

// the EVENTS consumer writes what is still on the queue: poll the teams whose reader total is still short of what they
// acknowledged until none is (or the totals stop moving for two rounds, or 180 s pass; drain-core.ts); the local queue
// drops what it still holds when the runtime stops
const drainStart = Date.now();
const ackedPerTeam = new Map(teams.map((t) => [t.id, t.acked.size]));
let drain = startDrain(teams.map((t) => t.id));
let drainEnd: DrainEnd | null = null;
while (drainEnd === null) {
  const totals = new Map<string, number>();
  await each(
    teams.filter((t) => drain.pending.has(t.id)),
    8,
    async (team) => {
      totals.set(team.id, await readerTotal(team));
    },
  );
  ({ state: drain, end: drainEnd } = drainRound(drain, totals, ackedPerTeam, Date.now() - drainStart, DRAIN_LIMITS));
  if (drainEnd === null) await sleep(2_000);
}
say(
  `queue drained for ${((Date.now() - drainStart) / 1000).toFixed(0)} s: ${drainEnd}, ${drain.pending.size} teams short`,
);

const problems: string[] = [];
const owner = new Map(teams.flatMap((t) => t.memories.map((m) => [m.id, t.id] as const)));
const found = new Map<string, Map<string, string[]>>();
const readerTotals = new Map<string, number>();
await each(teams, 8, async (team) => {
  const mine = new Map<string, string[]>();
  for (const m of team.memories) {
    const q = await api(team, "POST", "/v1/memory/query", { namespaces: [m.namespace], text: m.text, top_k: 10 });
    const ids: string[] = q.json.results.map((r: { id: string }) => r.id);
    mine.set(m.namespace, ids);
    for (const id of ids) if (owner.get(id) !== team.id) problems.push(`${team.id} sees ${id} of ${owner.get(id)}`);
  }
  found.set(team.id, mine);
  readerTotals.set(team.id, await readerTotal(team));
});
// another team's token never reaches a team's memory: its namespace is refused
await each(teams, 8, async (team) => {
  const other = teams[(teams.indexOf(team) + 1) % teams.length] as Team;
  const m = team.memories[0];
  if (!m || other === team) return;
  const q = await api(other, "POST", "/v1/memory/query", { namespaces: [m.namespace], text: m.text, top_k: 10 });
  if (q.status !== 403 && q.status !== 404) problems.push(`${other.id} queried ${team.id}'s namespace: ${q.status}`);
});
say("memory and reader totals read through the API; stopping the runtime to read its state");
server.crash();
await sleep(2_000);

let repeated = 0;
for (const team of teams) {
  const logged = loggedDecisions(server.persist, team.id);
  for (const n of logged.values()) repeated += n - 1;
  const observed = {
    ackedDecisions: team.acked,
    logged,
    readerTotal: readerTotals.get(team.id) ?? -1,
    ackedMemories: team.memories,
    foundMemories: found.get(team.id) ?? new Map(),
    kills: [],
  };
  problems.push(...ledgerProblems(observed, { bufferWindowMs: 0, strict: true }).map((p) => `${team.id}: ${p}`));
}
const d1Rows = d1MemoryRows(server.persist);
if (d1Rows > 0) problems.push(`D1 holds ${d1Rows} memory rows (mem_doc): memory belongs in each team's object`);
say(
  `${decisions} decisions checked in ${TEAMS} teams' objects (${repeated} repeated lines), ${writes} memories, D1 memory rows ${d1Rows}`,
);

/** Rows of mem_doc in the local D1 database of the persisted state (0 when no database has the table). */
function d1MemoryRows(persist: string): number {
  const dir = join(persist, "v3", "d1", "miniflare-D1DatabaseObject");
  let rows = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")) {
    const db = new DatabaseSync(join(dir, file), { readOnly: true });
    try {
      if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mem_doc'").get())
        rows += (db.prepare("SELECT count(*) AS n FROM mem_doc").get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  return rows;
}

if (problems.length > 0) {
  console.error(
    `fleet FAILED (${problems.length} problems):\n${problems
      .slice(0, 30)
      .map((p) => `  ${p}`)
      .join("\n")}`,
  );
  process.exit(1);
}
say("fleet passed: every acknowledged decision logged once, each team's memory only its own, no memory rows in D1");
process.exit(0);
