// npm test: the static checks (scripts/checks.mjs) and `vitest run` side by side. The checks are single-threaded
// processes and vitest waits on servers and child processes at times, so together they keep both cores of a small
// machine busy. The report is printed when both end, failures first: the failed tests (name and assertion, from
// vitest's JSON report) and checks, then vitest's output without its expected noise, then the checks' report. Exit code
// 1 when either failed, or when the workerd runtime reported an uncaught exception that no test caused on purpose
// (vitest sees only those of its own processes).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { failedTests, formatFailures } from "./failed-tests.mjs";
import { filterRuntimeReports, noiseSummary } from "./runtime-reports.mjs";

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

// Quiet unless asked otherwise: the dot reporter (whose dots the filter drops) for the failures and the totals, the
// JSON reporter for the failures up top; the console output of passing tests is dropped (`--silent=passed-only`), that
// of failing ones kept.
const args = process.argv.slice(2);
const quiet = args.some((a) => a.startsWith("--reporter")) ? [] : ["--reporter=dot"];
const silent = args.some((a) => a.startsWith("--silent")) ? [] : ["--silent=passed-only"];
const jsonDir = mkdtempSync(join(tmpdir(), "warden-test-"));
const jsonReport = join(jsonDir, "report.json");
const json = ["--reporter=json", `--outputFile.json=${jsonReport}`];
process.stdout.write("npm test: vitest and the static checks are running; the report follows when both end\n");
const vitest = spawn("npx", ["--no-install", "vitest", "run", ...quiet, ...json, ...silent, ...args], {
  stdio: ["inherit", "pipe", "pipe"],
  env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) },
});
let shown = "";
const held = { write: (s) => (shown += s) };
const out = filterRuntimeReports(held);
const err = filterRuntimeReports(held);
vitest.stdout.on("data", (d) => out.write(d));
vitest.stderr.on("data", (d) => err.write(d));
const tested = new Promise((resolve) => vitest.on("close", (code) => resolve(code === 0)));

const [checksOk, testsOk] = await Promise.all([checked, tested]);
out.end();
err.end();
const unexpected = out.unexpected() + err.unexpected();

/** The failed tests of the JSON report; none when vitest wrote none (it crashed: its output below says why). */
function readFailures() {
  try {
    return failedTests(JSON.parse(readFileSync(jsonReport, "utf8")), process.cwd());
  } catch {
    return [];
  } finally {
    rmSync(jsonDir, { recursive: true, force: true });
  }
}
const head = testsOk ? [] : formatFailures(readFailures());
// no failed test: vitest's unhandled errors (an uncaught exception or rejection in any project) or a crash
const unhandled = /Vitest caught \d+ unhandled errors?/.exec(stripVTControlCharacters(shown));
if (!testsOk && head.length === 0)
  head.push(unhandled ? `${unhandled[0]} (below)` : "vitest failed (its output below says why)");
if (!checksOk)
  head.push(
    "static checks failed:",
    ...report
      .split("\n")
      .filter((l) => l.startsWith("FAIL "))
      .map((l) => `  ${l}`),
  );
if (unexpected > 0) head.push(`workerd reported ${unexpected} uncaught exception(s) no test caused on purpose (below)`);
if (head.length > 0) process.stdout.write(`\nFAILED\n${head.join("\n")}\n`);

process.stdout.write(`\n${shown.trim()}\n`);
const noise = { ...out.noise() };
for (const [kind, n] of Object.entries(err.noise())) noise[kind] = (noise[kind] ?? 0) + n;
const deliberate = out.deliberate() + err.deliberate();
if (deliberate > 0) noise["workerd reports of deliberate object crashes and storage resets between files"] = deliberate;
const summary = noiseSummary(noise);
if (summary) process.stdout.write(`\n${summary}\n`);
if (unexpected > 0) {
  const reports = [...out.reports(), ...err.reports()].map((r) => `  ${r}\n`).join("");
  process.stdout.write(
    `\nFAIL: workerd reported ${unexpected} uncaught exception(s) no test caused on purpose:\n${reports}`,
  );
}
process.stdout.write(`\nstatic checks:\n${report}`);
process.exit(checksOk && testsOk && unexpected === 0 ? 0 : 1);
