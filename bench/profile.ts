// Bench-only CPU profile of the Worker inside workerd: V8's sampling profiler over Miniflare's inspector while one
// load runs; self time summed per source file of the bundle (esbuild's `// path` markers) and per function.
// `npx tsx bench/profile.ts decide|cycle|binding|write [seconds]` — a diagnosis tool, not a bench row.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { benchToken, bundle, freePort, load, startMiniflareServer } from "./harness";
import { singleWrites, writesToken } from "./sections/memory-writes";
import { DECIDE_BODY } from "./sections/policy";
import { cycleRound } from "./sections/runs";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** The source file each line of the bundle came from: esbuild opens every module with a `// <path>` comment. */
function sourceOfLines(lines: string[]): string[] {
  const out: string[] = [];
  let current = "(bundle prelude)";
  for (const line of lines) {
    const m = /^\/\/ ((?:src|bench|durable-objects|contracts|node_modules)\/\S+)$/.exec(line);
    if (m) current = (m[1] as string).replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, "npm:$1");
    out.push(current);
  }
  return out;
}

/** Opens the inspector session of the worker named `warden` and sends CDP commands over it. */
async function inspect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
    title?: string;
    id?: string;
  }[];
  const target = targets.find((t) => `${t.title}${t.id}`.includes("warden")) ?? targets[0];
  if (!target) throw new Error("no inspector target");
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let next = 1;
  const waiting = new Map<number, (v: unknown) => void>();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close(), title: target.title };
}

function summarize(profile: Profile, lines: string[], bundleName: string) {
  const lineSource = sourceOfLines(lines);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const files = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const f = (byId.get(id) as ProfileNode).callFrame;
    const file = f.url.endsWith(bundleName)
      ? (lineSource[f.lineNumber] ?? "?")
      : f.url === ""
        ? `(${f.functionName || "native"})`
        : f.url;
    files.set(file, (files.get(file) ?? 0) + us);
    const code = f.url.endsWith(bundleName) ? (lines[f.lineNumber] ?? "").trim().slice(0, 60) : "";
    const fn = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1} ${code}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
      );
  console.log(`sampled ${(total / 1000).toFixed(0)} ms of the worker isolate's thread`);
  console.log("\nself time by source file:");
  for (const l of top(files, 25)) console.log(l);
  console.log("\nself time by function:");
  for (const l of top(fns, 30)) console.log(l);
}

const scenario = process.argv[2] ?? "decide";
const seconds = Number(process.argv[3] ?? 6);
const port = await freePort();
const vars: Record<string, string> =
  scenario === "binding" ? { RATE_LIMITS: "on", RATE_LIMITER_KIND: "binding" } : { RATE_LIMITS: "off" };
const server = await startMiniflareServer({ inspectorPort: port, vars });
try {
  const session = await inspect(port);
  console.log(`profiling ${scenario} for ${seconds} s in ${session.title}`);
  const decide = async () => {
    const headers = {
      authorization: `Bearer ${await benchToken("bench-team", ["policy:decide"])}`,
      "content-type": "application/json",
    };
    return load(`${server.url}/v1/policy/decide`, { method: "POST", headers, body: DECIDE_BODY, seconds });
  };
  // single memory writes at 8 in flight, a distinct text each (the memory-writes bench row's load)
  let written = 0;
  const writes = async () => {
    const count = Math.round(seconds * 100);
    const latencies: number[] = [];
    const t0 = performance.now();
    await singleWrites(server.url, await writesToken(benchToken), 900_000 + written, count, async (res, ms) => {
      if (res.status !== 201) throw new Error(`POST /v1/memory answered ${res.status}: ${await res.text()}`);
      await res.text();
      latencies.push(ms);
    });
    written += count;
    latencies.sort((x, y) => x - y);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
    return { rps: count / ((performance.now() - t0) / 1000), p50: at(50), p99: at(99) };
  };
  const worker = await benchToken("bench-runs", ["runs:write", "runs:read"]);
  const round = () =>
    scenario === "cycle" ? cycleRound(server.url, worker, 1) : scenario === "write" ? writes() : decide();
  await (scenario === "cycle" ? cycleRound(server.url, worker, 0) : scenario === "write" ? writes() : decide()); // warm up
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 200 });
  await session.send("Profiler.start");
  const result = await round();
  const { profile } = (await session.send("Profiler.stop")) as { profile: Profile };
  session.close();
  console.log(`load: ${result.rps.toFixed(1)} /s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`);
  summarize(profile, readFileSync(join(bundle(), "worker.js"), "utf8").split("\n"), "worker.js");
} finally {
  await server.stop();
}
