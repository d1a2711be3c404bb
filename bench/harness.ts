// Bench harness: the bench Worker served by Miniflare (or `wrangler dev` for reference), autocannon load, the table.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
// @ts-expect-error plain ESM script, no declarations
import { applyLocalMigrations } from "../scripts/local-d1.mjs";
import { mintToken } from "../src/auth/mint";
import type { Scope } from "../src/auth/tokens";

export type Row = {
  section: string;
  metric: string;
  value: number;
  unit: string;
  ceiling?: number;
  ratio?: number;
  target?: string;
  /** whether the row meets its target, judged against the ceiling measured in the same run; printed PASS/MISS */
  pass?: boolean;
};
export type BenchContext = {
  server: LocalServer;
  /**
   * Set when the section runs a second time against `wrangler dev` for reference: its rows get the server's label,
   * no PASS/MISS, and a section may skip its slow set-up (e.g. the 50k memory seed).
   */
  reference?: boolean;
  token: (teamId: string, scopes: Scope[]) => Promise<string>;
};
export type BenchSection = { name: string; run: (ctx: BenchContext) => Promise<Row[]> };

export const BENCH_SECRET = "bench-secret-0123456789abcdef0123456789abcdef";
export const BENCH_SLACK_SECRET = "bench-slack-signing-secret-0123456789";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export type LocalServer = { url: string; label: string; stop: () => Promise<void> };
export type ServerOptions = {
  vars?: Record<string, string>;
  sql?: string;
  /** opens workerd's V8 inspector on this port (bench/profile.ts takes CPU profiles through it) */
  inspectorPort?: number;
};

/**
 * Where the servers' throw-away state lives: in memory (tmpfs) when the machine has one. Locally every commit of D1 or
 * of a SQLite-backed object is a sync to this machine's disk, which the bare route (the ceiling) never pays; in
 * production a commit is a replicated write, not a local sync. On disk the rows would measure the disk as much as
 * Warden (decide measured 0.24× on disk, 0.29× on tmpfs, same sitting). `BENCH_STATE_DIR` overrides it.
 */
export const STATE_ROOT = process.env.BENCH_STATE_DIR ?? (existsSync("/dev/shm") ? "/dev/shm" : tmpdir());

/** A throw-away state directory with every D1 migration applied (and the optional seed SQL run). */
async function migratedState(sql: string | undefined): Promise<string> {
  const persist = mkdtempSync(join(STATE_ROOT, "warden-bench-"));
  await applyLocalMigrations({ persistTo: persist });
  if (sql) {
    const out = spawnSync(
      "npx",
      ["--no-install", "wrangler", "d1", "execute", "DB", "--command", sql, "--local", "--persist-to", persist],
      { env: { ...process.env, CI: "true" }, encoding: "utf8" },
    );
    if (out.status !== 0) throw new Error(`seeding failed: ${out.stderr}`);
  }
  return persist;
}

/** Vars every bench server gets; rate limits are off unless a section asks for them (the limits section measures what they cost). */
function benchVars(vars: Record<string, string> | undefined): Record<string, string> {
  return {
    WARDEN_JWT_SECRET: BENCH_SECRET,
    RATE_LIMIT_PER_MINUTE: "1000000000",
    SLACK_SIGNING_SECRET: BENCH_SLACK_SECRET,
    RATE_LIMITS: "off",
    ...vars,
  };
}

let bundleDir: string | undefined;
/** bench/worker.ts bundled once per process exactly as `wrangler deploy` would (`--dry-run --outdir`). */
export function bundle(): string {
  if (bundleDir) return bundleDir;
  const dir = mkdtempSync(join(tmpdir(), "warden-bench-bundle-"));
  const out = spawnSync(
    "npx",
    ["--no-install", "wrangler", "deploy", "--dry-run", "--outdir", dir, "bench/worker.ts"],
    {
      env: { ...process.env, CI: "true" },
      encoding: "utf8",
    },
  );
  if (out.status !== 0) throw new Error(`bundling bench/worker.ts failed: ${out.stderr}`);
  bundleDir = dir;
  return dir;
}

/**
 * The bench Worker served by Miniflare's own API: the worker options wrangler derives from wrangler.toml
 * (`unstable_getMiniflareWorkerOptions`: bindings, D1, Durable Objects, queues, crons, compatibility), the bundle
 * `wrangler deploy` would upload, and Miniflare's HTTP server straight into workerd. `wrangler dev` and wrangler's
 * `unstable_startWorker`/`unstable_dev` all put their ProxyWorker (a second Miniflare instance) in front of the
 * worker, which is the hop this server leaves out; `startLocalServer` keeps that path for the reference rows.
 */
export async function startMiniflareServer(opts: ServerOptions = {}): Promise<LocalServer> {
  const persist = await migratedState(opts.sql);
  const dir = bundle();
  const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
  const modules = readdirSync(dir)
    .filter((f) => f.endsWith(".js") || f.endsWith(".wasm"))
    .map((f) => ({ type: f.endsWith(".js") ? ("ESModule" as const) : ("CompiledWasm" as const), path: join(dir, f) }));
  // worker.js must come first: Miniflare takes the first module as the entry point
  modules.sort((a, b) => (a.path.endsWith("/worker.js") ? -1 : b.path.endsWith("/worker.js") ? 1 : 0));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...(workerOptions as object),
      name: "warden",
      modules,
      modulesRoot: dir,
      bindings: { ...(workerOptions.bindings as Record<string, string>), ...benchVars(opts.vars) },
      host: "127.0.0.1",
      port: await freePort(),
      ...(opts.inspectorPort ? { inspectorPort: opts.inspectorPort } : {}),
      // the layout scripts/local-d1.mjs wrote (wrangler's own, under --persist-to)
      resourcePersistencePath: join(persist, "v3"),
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  const url = (await mf.ready).origin;
  return {
    url,
    label: "miniflare",
    stop: async () => {
      await mf.dispose();
      rmSync(persist, { recursive: true, force: true });
    },
  };
}

/** Starts `wrangler dev bench/worker.ts` (the Worker plus /__bench/* hooks) on loopback with its own throw-away state directory and migrated D1. */
export async function startLocalServer(opts: ServerOptions = {}): Promise<LocalServer> {
  const port = await freePort();
  const persist = await migratedState(opts.sql);
  const child: ChildProcess = spawn(
    "npx",
    [
      "--no-install",
      "wrangler",
      "dev",
      "bench/worker.ts",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persist,
      ...Object.entries(benchVars(opts.vars)).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
      "--log-level",
      "warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    label: "wrangler dev",
    stop: async () => {
      try {
        process.kill(-(child.pid as number), "SIGTERM");
      } catch {}
      await new Promise((r) => setTimeout(r, 500));
      rmSync(persist, { recursive: true, force: true });
    },
  };
}

export type LoadResult = { rps: number; p50: number; p99: number; errors: number; non2xx: number };

/** One autocannon round: 8 connections by default, fixed duration. */
export async function load(
  url: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    seconds?: number;
    connections?: number;
  } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: (opts.method ?? "GET") as "GET",
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 8,
    duration: opts.seconds ?? 5,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** The bench worker's bare route (bench/worker.ts): the HTTP ceiling every HTTP row is divided by. */
export const BARE_PATH = "/__bench/bare";

/** Alternates rounds of every load in turn so drift on a shared machine hits all; returns the per-load means. */
export async function alternateAll(rounds: number, loads: (() => Promise<LoadResult>)[]): Promise<LoadResult[]> {
  const results: LoadResult[][] = loads.map(() => []);
  for (let i = 0; i < rounds; i++) for (const [j, run] of loads.entries()) results[j]?.push(await run());
  return results.map(meanOf);
}

function meanOf(xs: LoadResult[]): LoadResult {
  return {
    rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
    p50: xs.reduce((s, x) => s + x.p50, 0) / xs.length,
    p99: Math.max(...xs.map((x) => x.p99)),
    errors: xs.reduce((s, x) => s + x.errors, 0),
    non2xx: xs.reduce((s, x) => s + x.non2xx, 0),
  };
}

/** Alternates rounds of a and b so drift on a shared machine hits both; returns the per-side means. */
export async function alternate(
  rounds: number,
  a: () => Promise<LoadResult>,
  b: () => Promise<LoadResult>,
): Promise<[LoadResult, LoadResult]> {
  const as: LoadResult[] = [];
  const bs: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await a());
    bs.push(await b());
  }
  const mean = (xs: LoadResult[]): LoadResult => ({
    rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
    p50: xs.reduce((s, x) => s + x.p50, 0) / xs.length,
    p99: Math.max(...xs.map((x) => x.p99)),
    errors: xs.reduce((s, x) => s + x.errors, 0),
    non2xx: xs.reduce((s, x) => s + x.non2xx, 0),
  });
  return [mean(as), mean(bs)];
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export const benchToken = (teamId: string, scopes: Scope[]) =>
  mintToken({ secret: BENCH_SECRET, teamId, scopes, sub: `bench-${teamId}` });

export function printTable(rows: Row[]): void {
  const fmt = (n: number | undefined) =>
    n === undefined ? "" : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
  const table = rows.map((r) => ({
    section: r.section,
    metric: r.metric,
    value: `${fmt(r.value)} ${r.unit}`,
    ceiling: r.ceiling === undefined ? "" : `${fmt(r.ceiling)} ${r.unit}`,
    ratio: r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}×`,
    target: r.target ?? "",
    verdict: r.pass === undefined ? "" : r.pass ? "PASS" : "MISS",
  }));
  const cols = ["section", "metric", "value", "ceiling", "ratio", "target", "verdict"] as const;
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...table.map((t) => t[c].length))]));
  const line = (t: Record<string, string>) => cols.map((c) => t[c]?.padEnd(width[c] as number)).join(" | ");
  console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
  console.log(cols.map((c) => "-".repeat(width[c] as number)).join("-|-"));
  for (const t of table) console.log(line(t));
}

/**
 * The rows of one HTTP load against the bare route measured in the same rounds: req/s (ratio to bare req/s),
 * p50, and p99 (ratio to bare p99). Targets are optional: `minRps` as a fraction of bare req/s, `maxP99` as a
 * multiple of bare p99.
 */
export function httpRows(
  section: string,
  metric: string,
  got: LoadResult,
  bare: LoadResult,
  targets: { minRps?: number; maxP99?: number } = {},
): Row[] {
  const { minRps, maxP99 } = targets;
  return [
    {
      section,
      metric: `${metric} (8 connections)`,
      value: got.rps,
      unit: "req/s",
      ceiling: bare.rps,
      ratio: got.rps / bare.rps,
      ...(minRps === undefined
        ? {}
        : { target: `≥ ${minRps.toFixed(2)}× bare req/s`, pass: got.rps / bare.rps >= minRps }),
    },
    { section, metric: `${metric} p50`, value: got.p50, unit: "ms", ceiling: bare.p50, ratio: got.p50 / bare.p50 },
    {
      section,
      metric: `${metric} p99`,
      value: got.p99,
      unit: "ms",
      ceiling: bare.p99,
      ratio: got.p99 / bare.p99,
      ...(maxP99 === undefined ? {} : { target: `≤ ${maxP99}× bare p99`, pass: got.p99 <= maxP99 * bare.p99 }),
    },
  ];
}
