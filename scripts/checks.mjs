// `npm test`'s static checks (biome, tsc for the worker and the Node code, the ReDoS check, dependency-cruiser) run at once: each is
// one process that mostly uses one core, so on a 2-core machine side by side they take about as long as the slowest.
// Each one's output is printed when it ends; the exit code is 1 when any failed.
import { spawn } from "node:child_process";

// tsc and dependency-cruiser keep what they learnt in node_modules/.cache, so a second `npm test` re-checks only what
// changed. A fresh clone starts cold.
const CACHE = "node_modules/.cache";
const tscIncremental = (name) => ["--incremental", "--tsBuildInfoFile", `${CACHE}/warden-${name}.tsbuildinfo`];
// The type checks run TypeScript 7 (the native compiler, devDependency `typescript-native`): ~15 s per project on this
// machine against ~100 s for TypeScript 5.9, whose JavaScript API dependency-cruiser and scripts/ still use. Single
// threaded: its parallel checkers each check the shared declarations again (37 CPU-s for the worker project with the
// default 4, 15 with one), and beside vitest the CPU is what `npm test` is short of, not threads.
const TSC = ["node", "node_modules/typescript-native/bin/tsc", "--singleThreaded"];
const CHECKS = [
  ["biome", ["biome", "check", "."]],
  ["tsc", [...TSC, "--noEmit", ...tscIncremental("tsc-worker")]],
  ["tsc (node)", [...TSC, "--noEmit", "-p", "tsconfig.node.json", ...tscIncremental("tsc-node")]],
  // no import cycle between feature folders (a folder's pure domain.ts is a layer below every folder's services)
  ["feature cycles", ["node", "scripts/feature-cycles.mjs"]],
  // src/ports/ exports types only (values live in src/lib/ or a feature's domain.ts)
  ["ports are types", ["node", "scripts/ports-are-types.mjs"]],
  // no production function over 60 lines (closure-modules included)
  ["function length", ["node", "scripts/function-length.mjs"]],
  // the suite's one time limit is the config's (no test sets its own)
  ["one timeout", ["node", "scripts/one-timeout.mjs"]],
  // raw SQL only in adapter tests (the files still converting are listed in the script)
  ["raw sql in tests", ["node", "scripts/raw-sql-in-tests.mjs"]],
  // every regex of the Worker's code is linear-time (recheck, confirmed in V8); verdicts committed by pattern
  ["redos", ["tsx", "scripts/redos-check.mts"]],
  [
    "depcruise",
    [
      "depcruise",
      ...["src", "durable-objects", "contracts", "bench", "--config", ".dependency-cruiser.cjs"],
      ...["--cache", `${CACHE}/dependency-cruiser`],
    ],
  ],
];

/** Runs one check through the project's own binaries (`npx --no-install`), its output kept until it ends. */
function run([name, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npx", ["--no-install", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? "ok  " : "FAIL"} ${name} (${seconds} s)\n`);
      if (code !== 0) process.stdout.write(`${out.trimEnd()}\n`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
