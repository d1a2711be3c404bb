// The workerd runtime's own uncaught-exception reports in `npm test`'s output: kept out when a test caused them on purpose,
// counted (and passed through) otherwise, so scripts/test.mjs can fail the run on them; vite's warnings about installed
// packages' source maps are dropped.
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

/**
 * A line filter in front of `sink` (a writable stream): lines of a report the tests caused (a deliberate crash, a reset
 * between files) are dropped (what comes
 * before the report on its line is kept), every other line is written through; `unexpected()` counts the reports that
 * were not deliberate and `reports()` gives their first lines, so the run's summary can repeat them at its end (a CI log
 * shows only its tail).
 */
export function filterRuntimeReports(sink) {
  let partial = "";
  let dropping = false;
  let unexpected = 0;
  let deliberate = 0;
  const reports = [];
  const line = (text) => {
    const plain = stripVTControlCharacters(text);
    if (PACKAGE_SOURCEMAP.test(plain.trim())) return;
    const report = REPORT.exec(plain);
    if (report) {
      dropping = CAUSED_BY_TESTS.some((text) => plain.includes(text));
      if (dropping) {
        deliberate++;
        const before = plain.slice(0, report.index);
        if (before) sink.write(before);
        return;
      }
      if (report[1] === "uncaught exception;") {
        unexpected++;
        reports.push(plain.slice(report.index, report.index + 600));
      }
    } else if (!CONTINUATION.test(plain)) dropping = false;
    if (!dropping) sink.write(`${text}\n`);
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
  };
}
