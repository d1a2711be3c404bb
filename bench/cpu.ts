// Bench-only diagnosis: the workerd process's CPU time (/proc utime+stime) per request for the bare route, decide and
// a lease cycle — a figure a busy shared machine disturbs far less than req/s. `npx tsx bench/cpu.ts [binding|writes]`
// (`writes`: the bare route and single memory writes at 8 in flight, the memory-writes row's load).
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import { benchToken, startMiniflareServer } from "./harness";
import { singleWrites, writesToken } from "./sections/memory-writes";
import { DECIDE_BODY } from "./sections/policy";
import { cycleRound } from "./sections/runs";

const workerds = () =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").includes("workerd");
      } catch {
        return false;
      }
    });
const before = new Set(workerds());
const vars: Record<string, string> =
  process.argv[2] === "binding" ? { RATE_LIMITS: "on", RATE_LIMITER_KIND: "binding" } : {};
const server = await startMiniflareServer({ vars });
const mine = workerds().filter((p) => !before.has(p));
const ticks = () =>
  mine.reduce((a, p) => {
    const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return a + Number(f[11]) + Number(f[12]);
  }, 0);
const tick = 1000 / 100;
async function measure(name: string, n: number, run: () => Promise<unknown>) {
  const t0 = ticks();
  const w0 = performance.now();
  await run();
  const cpu = (ticks() - t0) * tick;
  const wall = performance.now() - w0;
  console.log(
    `${name}: ${(cpu / n).toFixed(3)} ms workerd CPU per unit (${n} units, wall ${(wall / 1000).toFixed(1)} s)`,
  );
  return cpu / n;
}
try {
  const auth = {
    authorization: `Bearer ${await benchToken("bench-team", ["policy:decide"])}`,
    "content-type": "application/json",
  };
  const N = 3000;
  const ac = (path: string, opts: object = {}) =>
    autocannon({ url: `${server.url}${path}`, connections: 8, amount: N, ...opts });
  await ac("/__bench/bare");
  if (process.argv[2] === "writes") {
    const authorization = await writesToken(benchToken);
    await singleWrites(server.url, authorization, 0, 100); // warm-up
    for (let r = 0; r < 3; r++) {
      await measure("bare", N, () => ac("/__bench/bare"));
      await measure("single memory write", 400, () => singleWrites(server.url, authorization, 1000 * (r + 1), 400));
    }
  } else {
    await ac("/v1/policy/decide", { method: "POST", headers: auth, body: DECIDE_BODY });
    for (let r = 0; r < 2; r++) {
      await measure("bare", N, () => ac("/__bench/bare"));
      await measure("decide", N, () => ac("/v1/policy/decide", { method: "POST", headers: auth, body: DECIDE_BODY }));
    }
    if (process.argv[2] !== "binding") {
      const worker = await benchToken("bench-runs", ["runs:write", "runs:read"]);
      for (let r = 0; r < 2; r++)
        await measure("cycle (incl. run+orders setup)", 320, () => cycleRound(server.url, worker, r));
    }
  }
  await new Promise((r) => setTimeout(r, 3000));
  await measure("idle 3 s (background)", 1, () => new Promise((r) => setTimeout(r, 3000)));
} finally {
  await server.stop();
}
