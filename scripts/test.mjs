// npm test: the static checks (scripts/checks.mjs) and `vitest run` side by side. The checks are single-threaded
// processes and vitest waits on servers and child processes at times, so together they keep both cores of a small
// machine busy; the checks' report is printed after vitest's. Exit code 1 when either failed.
import { spawn } from "node:child_process";

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
const vitest = spawn("npx", ["--no-install", "vitest", "run", ...process.argv.slice(2)], { stdio: "inherit" });
const tested = new Promise((resolve) => vitest.on("close", (code) => resolve(code === 0)));

const [checksOk, testsOk] = await Promise.all([checked, tested]);
process.stdout.write(`\nstatic checks:\n${report}`);
process.exit(checksOk && testsOk ? 0 : 1);
