// The suite's one time limit lives in vitest.config.ts (TEST_TIMEOUT_MS): a test file that sets its own — vi.setConfig,
// a describe/it options object, or a number after a test's body — fails this check, since a shorter limit is what
// failed tests on a loaded machine (the suite must pass beside a CPU-bound process on both cores).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const OWN_LIMITS = [
  /vi\.setConfig\(\s*\{[^}]*\b(testTimeout|hookTimeout)\b/,
  /\b(describe|it|test)(\.\w+)*\([^\n]*,\s*\{[^}\n]*\btimeout\s*:/,
  /^\s*\},\s*[0-9_]+\s*\);\s*$/,
];
/** A number after a closing brace is a test's own limit only when that brace closes a test or hook, not a helper call. */
const TEST_OPENING = /^\s*(it|test|beforeAll|afterAll|beforeEach|afterEach)(\.\w+)*\(/;

function ownLimits(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const found = [];
  for (const [i, line] of lines.entries()) {
    const hit = OWN_LIMITS.findIndex((re) => re.test(line));
    // a bare number as the last argument of a call that closes on the next line (`it.each(…)(name, fn,\n 300_000,\n)`)
    const lastArgument = /^\s*[0-9_]{4,},?\s*$/.test(line) && /^\s*\);/.test(lines[i + 1] ?? "");
    if (hit < 0 && !lastArgument) continue;
    if (hit === 2 && !TEST_OPENING.test(openingOf(lines, i))) continue;
    found.push(`${file}:${i + 1}: ${line.trim()}`);
  }
  return found;
}

/** The line that opened the block a `}` at line `i` closes: the nearest earlier line at the same indentation ending in `{`. */
function openingOf(lines, i) {
  const indent = lines[i].match(/^\s*/)[0];
  for (let j = i - 1; j >= 0; j--) {
    const l = lines[j];
    if (l.startsWith(indent) && !/^\s/.test(l.slice(indent.length)) && l.trimEnd().endsWith("{")) return l;
  }
  return "";
}

const files = execFileSync("git", ["ls-files", "*.test.ts", "test/**/*.ts"], { encoding: "utf8" })
  .split("\n")
  // tracked but deleted in the work tree (a deletion not yet staged): nothing left to check
  .filter((f) => f && existsSync(f));
const found = files.flatMap(ownLimits);
if (found.length > 0) {
  console.log(
    `tests with their own time limit (use the config's one, vitest.config.ts TEST_TIMEOUT_MS):\n${found.join("\n")}`,
  );
  process.exit(1);
}
