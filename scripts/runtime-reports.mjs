// The workerd runtime's own uncaught-exception reports in `npm test`'s output: kept out when a test caused them on purpose,
// counted (and passed through) otherwise, so scripts/test.mjs can fail the run on them.
import { stripVTControlCharacters } from "node:util";

/**
 * The text every deliberate crash carries (`DELIBERATE_CRASH` in test/run-helpers.ts, where the security matrix breaks
 * a run object's input gate on purpose): workerd reports each broken gate as an "uncaught exception", expected or not.
 */
export const DELIBERATE_CRASH = "deliberate crash by a test";

/**
 * The first line of one of workerd's reports (its continuation lines follow: `    at …`, `stack: …`). It may share its
 * line with the dot reporter's dots: workerd's info-level logs go to the same stdout.
 */
const REPORT = /(uncaught exception;|Annotating with brokenness;)/;
const CONTINUATION = /^(\s+at |stack: )/;

/**
 * A line filter in front of `sink` (a writable stream): lines of a deliberate crash's report are dropped (what comes
 * before the report on its line is kept), every other line is written through; `unexpected()` counts the reports that
 * were not deliberate.
 */
export function filterRuntimeReports(sink) {
  let partial = "";
  let dropping = false;
  let unexpected = 0;
  let deliberate = 0;
  const line = (text) => {
    const plain = stripVTControlCharacters(text);
    const report = REPORT.exec(plain);
    if (report) {
      dropping = plain.includes(DELIBERATE_CRASH);
      if (dropping) {
        deliberate++;
        const before = plain.slice(0, report.index);
        if (before) sink.write(before);
        return;
      }
      if (report[1] === "uncaught exception;") unexpected++;
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
    deliberate: () => deliberate,
  };
}
