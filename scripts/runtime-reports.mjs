// The filter in front of vitest's output in `npm test`: the workerd runtime's own uncaught-exception reports are kept out
// when a test caused them on purpose and counted (and passed through) otherwise, so scripts/test.mjs can fail the run on
// them; the lines every run prints that say nothing about the code (expected noise, the dot reporter's dots) are
// counted by kind and dropped.
import { stripVTControlCharacters } from "node:util";

/**
 * The text every deliberate crash carries (`DELIBERATE_CRASH` in test/run-helpers.ts, where the security matrix breaks
 * a run object's input gate on purpose): workerd reports each broken gate as an "uncaught exception", expected or not.
 */
export const DELIBERATE_CRASH = "deliberate crash by a test";

/**
 * The text of the error workerd gives a storage call still in flight when a test file's setup resets storage
 * (test/setup.ts: `reset()` deletes every Durable Object, D1's included): background work of the previous file — a queue
 * consumer's retry, an outbox flush — is cut off by the harness on purpose, so its report is not a fault of the code.
 */
export const STORAGE_RESET = "Application called deleteAllDurableObjects()";
const CAUSED_BY_TESTS = [DELIBERATE_CRASH, STORAGE_RESET];

/**
 * The first line of one of workerd's reports (its continuation lines follow: `    at …`, `stack: …`). It may share its
 * line with the dot reporter's dots: workerd's info-level logs go to the same stdout.
 */
const REPORT = /(uncaught exception;|Annotating with brokenness;)/;
/**
 * Vite's warning for a published package whose source maps name sources it does not ship (the MCP SDK's): it says
 * nothing about this project and was most of a passing run's output. vitest replaces any logger the config gives.
 */
const PACKAGE_SOURCEMAP = /^Sourcemap for "[^"]*\/node_modules\/[^"]*" points to missing source files$/;
const CONTINUATION = /^(\s+at |stack: )/;
/** vitest's note that it wrote the JSON report npm test reads the failures from (scripts/test.mjs asks for it). */
const JSON_REPORT_NOTE = /^JSON report written to /;

/**
 * Lines every passing run prints that say nothing about the code under test, by kind: queue messages a consumer test
 * fails on purpose (and background deliveries cut off by the reset between files) going to the dead-letter queue after
 * their retries, miniflare's note that it read `.dev.vars`, `npm start`'s note that it wrote one (the node-server
 * project's server), and workerd's note that a client closed a connection mid-response (a stream a test stopped
 * reading; its `stack:` line follows). Summed up in one line by `noiseSummary`.
 */
export const EXPECTED_NOISE = [
  { kind: "dead-letter moves", pattern: /^\[mf:warn\] Moving message "[^"]*" on queue "[^"]*" to dead letter queue / },
  { kind: "'Using secrets defined in .dev.vars'", pattern: /^Using secrets defined in \.dev\.vars$/ },
  { kind: "'created .dev.vars'", pattern: /^created \.dev\.vars with a random / },
  { kind: "workerd disconnect notices", pattern: /^exception = kj\/async-io\.c\+\+:\d+: disconnected: / },
];
/**
 * The dot reporter's progress icons (passed, failed, pending, skipped) at a line's start, at least one pass among them
 * (a line of text may start with `x` or `-`), which workerd's logs may share a line with.
 */
const DOTS = /^[\u00b7x*-]*\u00b7[\u00b7x*-]*/;

/** One line of what was left out, e.g. `not shown: 12 dead-letter moves, 2 workerd disconnect notices`. */
export function noiseSummary(counts) {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  return parts.length === 0 ? "" : `not shown: ${parts.join(", ")}`;
}

/**
 * A line filter in front of `sink` (a writable stream): the dot reporter's dots are dropped (the totals say as much),
 * lines of a report the tests caused (a deliberate crash, a reset between files) and expected noise (`EXPECTED_NOISE`)
 * are dropped and counted (`deliberate()`, `noise()` by kind), every other line is written through; `unexpected()`
 * counts the reports that were not deliberate and `reports()` gives their first lines, so the run's summary can repeat
 * them at its end.
 */
export function filterRuntimeReports(sink) {
  let partial = "";
  let dropping = false;
  let unexpected = 0;
  let deliberate = 0;
  const reports = [];
  const noise = {};
  const line = (text) => {
    const uncoloured = stripVTControlCharacters(text);
    const plain = uncoloured.replace(DOTS, "");
    if (plain !== uncoloured && plain.trim() === "") return;
    if (PACKAGE_SOURCEMAP.test(plain.trim()) || JSON_REPORT_NOTE.test(plain)) return;
    const expected = EXPECTED_NOISE.find((n) => n.pattern.test(plain));
    if (expected) {
      noise[expected.kind] = (noise[expected.kind] ?? 0) + 1;
      dropping = true; // with its continuation lines
      return;
    }
    const report = REPORT.exec(plain);
    if (report) {
      dropping = CAUSED_BY_TESTS.some((text) => plain.includes(text));
      if (dropping) {
        deliberate++;
        return;
      }
      if (report[1] === "uncaught exception;") {
        unexpected++;
        reports.push(plain.slice(report.index, report.index + 600));
      }
    } else if (!CONTINUATION.test(plain)) dropping = false;
    if (!dropping) sink.write(`${plain === uncoloured ? text : plain}\n`);
  };
  return {
    write(chunk) {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const l of lines) line(l);
    },
    end() {
      if (partial) line(partial);
      partial = "";
    },
    unexpected: () => unexpected,
    reports: () => [...reports],
    deliberate: () => deliberate,
    noise: () => ({ ...noise }),
  };
}
