// The filter npm test puts in front of vitest's output: deliberate crash reports dropped, any other uncaught one counted.
import { describe, expect, it } from "vitest";
import { DELIBERATE_CRASH as CRASH_IN_TESTS } from "../test/deliberate-crash";
import { DELIBERATE_CRASH, filterRuntimeReports, STORAGE_RESET } from "./runtime-reports.mjs";

const WORKERD = "/w/node_modules/@cloudflare/workerd-linux-64/bin/workerd";

/** workerd's report of one broken input gate, as it prints it (taken from a run of the security matrix). */
const report = (message: string) => [
  `uncaught exception; source = Uncaught (in promise); stack = Error: ${message}`,
  "    at /w/test/run-helpers.ts:88:15",
  `Annotating with brokenness; internalMessage = jsg.Error: ${message}; brokennessReason = broken.inputGateBroken`,
  `uncaught exception; exception = workerd/jsg/value.h:1535: failed: broken.inputGateBroken; jsg.Error: ${message}`,
  `stack: ${WORKERD}@389cca0 ${WORKERD}@389f33b`,
];

function filtered(lines: string[], chunk = 7) {
  let written = "";
  const f = filterRuntimeReports({ write: (s: string) => (written += s) });
  const text = lines.join("\n");
  // arbitrary chunk boundaries, as a pipe delivers them
  for (let i = 0; i < text.length; i += chunk) f.write(text.slice(i, i + chunk));
  f.end();
  return {
    lines: written.split("\n").filter(Boolean),
    unexpected: f.unexpected(),
    deliberate: f.deliberate(),
    reports: f.reports(),
  };
}

describe("filterRuntimeReports", () => {
  it("drops every line of a deliberate crash's report and keeps the lines around it", () => {
    const r = filtered(["before", ...report(DELIBERATE_CRASH), "\u001b[32m·\u001b[39m after"]);
    expect(r.lines).toEqual(["before", "\u001b[32m·\u001b[39m after"]);
    expect(r.unexpected).toBe(0);
    expect(r.deliberate).toBeGreaterThan(0);
  });

  it("drops the reports of storage calls the harness's reset between files cut off", () => {
    const cutOff = [
      `uncaught exception; source = Uncaught (in promise); stack = Error: ${STORAGE_RESET}.`,
      "    at async D1Entry.fetch (file:///w/node_modules/miniflare/dist/src/workers/d1/entry.worker.js:110:12)",
      `uncaught exception; exception = workerd/jsg/value.h:1535: failed: jsg.Error: ${STORAGE_RESET}.`,
      `stack: ${WORKERD}@3a4d9d0 ${WORKERD}@3a4e7b5`,
    ];
    const r = filtered(["x", ...cutOff, "y"]);
    expect(r.lines).toEqual(["x", "y"]);
    expect(r.unexpected).toBe(0);
    expect(r.deliberate).toBe(2);
  });

  it("drops vite's warnings about source maps of installed packages, not about the project's own files", () => {
    const pkg =
      'Sourcemap for "/w/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js" points to missing source files';
    const own = 'Sourcemap for "/w/src/app.ts" points to missing source files';
    expect(filtered(["a", pkg, own, "b"]).lines).toEqual(["a", own, "b"]);
  });

  it("passes any other uncaught exception through and counts it", () => {
    const other = report("boom in a handler");
    const r = filtered(["a", ...other, ...report(DELIBERATE_CRASH), "b"], 5);
    expect(r.lines).toEqual(["a", ...other, "b"]);
    expect(r.unexpected).toBe(2);
    expect(r.reports).toEqual([other[0], other[3]]);
  });

  it("keeps the dots written before a report on its line, and still counts a report that follows dots", () => {
    const [first, ...rest] = report(DELIBERATE_CRASH);
    const deliberate = filtered([`\u00b7\u00b7${first}`, ...rest, "\u00b7 end"]);
    expect(deliberate.lines.join("")).toBe("\u00b7\u00b7\u00b7 end");
    const other = filtered([`\u00b7${report("boom")[0]}`]);
    expect(other.unexpected).toBe(1);
  });

  it("counts a report whose colour codes hide its start", () => {
    const r = filtered(["\u001b[31muncaught exception; source = Uncaught (in promise); stack = Error: x\u001b[39m"]);
    expect(r.unexpected).toBe(1);
  });

  it("uses the text the tests' deliberate crashes carry", () => {
    expect(CRASH_IN_TESTS).toBe(DELIBERATE_CRASH);
  });
});
