// npm test: the static checks (scripts/checks.mjs) and `vitest run` side by side. The checks are single-threaded
// processes and vitest waits on servers and child processes at times, so together they keep both cores of a small
// machine busy; the checks' report is printed after vitest's. Exit code 1 when either failed, or when the workerd
// runtime reported an uncaught exception that no test caused on purpose (vitest sees only those of its own processes).
import { spawn } from "node:child_process";
import { filterRuntimeReports } from "./runtime-reports.mjs";

const here = import.meta.dirname;
const checks = spawn(process.execPath, [`${here}/checks.mjs`], { stdio: ["ignore", "pipe", "pipe"] });
let report = "";
checks.stdout.on("data", (d) => {
  report += d;
});
checks.stderr.on("data", (d) => {
  report += d;
});
const checked = new Promise((resolve) => checks.on("close", (code) => resolve(code === 0)));

// Quiet unless asked otherwise: a dot per test, then the failed tests (name and assertion) and the totals; the console
// output of passing tests is dropped (`--silent=passed-only`), that of failing ones kept.
const args = process.argv.slice(2);
const quiet = args.some((a) => a.startsWith("--reporter")) ? [] : ["--reporter=dot"];
const silent = args.some((a) => a.startsWith("--silent")) ? [] : ["--silent=passed-only"];
const vitest = spawn("npx", ["--no-install", "vitest", "run", ...quiet, ...silent, ...args], {
  stdio: ["inherit", "pipe", "pipe"],
  env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) },
});
const out = filterRuntimeReports(process.stdout);
const err = filterRuntimeReports(process.stderr);
vitest.stdout.on("data", (d) => out.write(d));
vitest.stderr.on("data", (d) => err.write(d));
const tested = new Promise((resolve) => vitest.on("close", (code) => resolve(code === 0)));

const [checksOk, testsOk] = await Promise.all([checked, tested]);
out.end();
err.end();
const unexpected = out.unexpected() + err.unexpected();
const deliberate = out.deliberate() + err.deliberate();
if (deliberate > 0)
  process.stdout.write(
    `\n${deliberate} workerd reports of deliberate object crashes and storage resets between files (not shown)\n`,
  );
if (unexpected > 0) {
  const reports = [...out.reports(), ...err.reports()].map((r) => `  ${r}\n`).join("");
  process.stdout.write(
    `\nFAIL: workerd reported ${unexpected} uncaught exception(s) no test caused on purpose:\n${reports}`,
  );
}
process.stdout.write(`\nstatic checks:\n${report}`);
process.exit(checksOk && testsOk && unexpected === 0 ? 0 : 1);
