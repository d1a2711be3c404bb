// The failed tests of a vitest run, read from its JSON report, as the lines `npm test` prints first when a run fails.
import { relative } from "node:path";
import { stripVTControlCharacters } from "node:util";

/** How many lines of a failure's message are shown up top (the assertion and its diff's start); the rest is below. */
const MESSAGE_LINES = 6;
const STACK_FRAME = /^\s+at /;

/** The head of a failure message: its lines up to the first stack frame, at most MESSAGE_LINES of them. */
function assertion(message) {
  const lines = stripVTControlCharacters(message ?? "").split("\n");
  const end = lines.findIndex((l) => STACK_FRAME.test(l));
  return (end === -1 ? lines : lines.slice(0, end))
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(0, MESSAGE_LINES);
}

/**
 * The failures in vitest's JSON report (`--reporter=json`): each failed test as `file > describe > name` with the head
 * of its assertion, and each file that failed without a failed test (it did not load, a hook threw) with its message.
 * `root` makes the file paths relative.
 */
export function failedTests(report, root) {
  const failures = [];
  for (const file of report?.testResults ?? []) {
    const path = relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed)
      failures.push({ name: `${path} > ${t.fullName}`, assertion: assertion(t.failureMessages?.[0]) });
    if (failed.length === 0 && file.status === "failed")
      failures.push({ name: path, assertion: assertion(file.message) });
  }
  return failures;
}

/** The lines printed first when tests failed: a count, then each failure's name and its assertion indented. */
export function formatFailures(failures) {
  if (failures.length === 0) return [];
  const lines = [`${failures.length} failed:`];
  for (const f of failures) lines.push(`  FAIL ${f.name}`, ...f.assertion.map((l) => `       ${l}`));
  return lines;
}
