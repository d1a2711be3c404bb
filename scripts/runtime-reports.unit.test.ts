// The filter npm test puts in front of vitest's output: deliberate crash reports dropped, any other uncaught one counted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DELIBERATE_CRASH as CRASH_IN_TESTS } from "../test/deliberate-crash";
import {
  DELIBERATE_CRASH,
  EXPECTED_NOISE,
  filterRuntimeReports,
  noiseSummary,
  STORAGE_RESET,
} from "./runtime-reports.mjs";

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
    noise: f.noise(),
  };
}

describe("filterRuntimeReports", () => {
  it("drops every line of a deliberate crash's report and keeps the lines around it", () => {
    const r = filtered(["before", ...report(DELIBERATE_CRASH), "\u001b[32m·\u001b[39m after"]);
    expect(r.lines).toEqual(["before", " after"]);
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
    // and vitest's note of the JSON report npm test asks for and reads itself
    expect(filtered(["a", "JSON report written to /tmp/warden-test-x/report.json", "b"]).lines).toEqual(["a", "b"]);
  });

  it("passes any other uncaught exception through and counts it", () => {
    const other = report("boom in a handler");
    const r = filtered(["a", ...other, ...report(DELIBERATE_CRASH), "b"], 5);
    expect(r.lines).toEqual(["a", ...other, "b"]);
    expect(r.unexpected).toBe(2);
    expect(r.reports).toEqual([other[0], other[3]]);
  });

  it("drops the dots written before a report on its line, and still counts a report that follows dots", () => {
    const [first, ...rest] = report(DELIBERATE_CRASH);
    const deliberate = filtered([`\u00b7\u00b7${first}`, ...rest, "\u00b7 end"]);
    expect(deliberate.lines).toEqual([" end"]);
    expect(deliberate.deliberate).toBeGreaterThan(0);
    const other = filtered([`\u00b7${report("boom")[0]}`]);
    expect(other.unexpected).toBe(1);
    expect(other.lines).toEqual([report("boom")[0]]);
  });

  it("counts a report whose colour codes hide its start", () => {
    const r = filtered(["\u001b[31muncaught exception; source = Uncaught (in promise); stack = Error: x\u001b[39m"]);
    expect(r.unexpected).toBe(1);
  });

  it("uses the text the tests' deliberate crashes carry", () => {
    expect(CRASH_IN_TESTS).toBe(DELIBERATE_CRASH);
  });

  it("drops the dot reporter's progress lines, coloured or not, and keeps the lines after them", () => {
    const r = filtered([
      "\u001b[32m\u00b7\u00b7\u00b7\u001b[39m\u001b[31mx\u001b[39m\u00b7-*",
      "\u00b7\u00b7",
      "",
      " Test Files  2 passed (2)",
    ]);
    expect(r.lines).toEqual([" Test Files  2 passed (2)"]);
  });
});

/** One sample line of each kind of expected noise, as a passing run printed them (paths shortened). */
const NOISE_SAMPLES: Record<string, string[]> = {
  "dead-letter moves": [
    '[mf:warn] Moving message "6c4b6c761802db4911698d416dc195e7" on queue "warden-events" to dead letter queue "warden-events-dlq" after 4 failed attempts...',
  ],
  "'Using secrets defined in .dev.vars'": ["Using secrets defined in .dev.vars"],
  "'created .dev.vars'": [
    "created .dev.vars with a random WARDEN_JWT_SECRET, SLACK_SIGNING_SECRET and SLACK_TOKEN_KEY",
  ],
  "workerd disconnect notices": [
    "exception = kj/async-io.c++:763: disconnected: read end of pipe was aborted",
    `stack: ${WORKERD}@3ed1111`,
  ],
};

describe("expected noise", () => {
  it("has a sample for every kind", () => {
    expect(Object.keys(NOISE_SAMPLES).sort()).toEqual(EXPECTED_NOISE.map((n) => n.kind).sort());
  });

  it("drops each kind of noise with its continuation lines, after dots too, and counts it by kind", () => {
    const r = filtered([
      "before",
      `\u00b7\u00b7${NOISE_SAMPLES["'Using secrets defined in .dev.vars'"]?.[0]}`,
      ...Object.values(NOISE_SAMPLES).flat(),
      "after",
    ]);
    expect(r.lines).toEqual(["before", "after"]);
    expect(r.noise).toEqual({
      "dead-letter moves": 1,
      "'Using secrets defined in .dev.vars'": 2,
      "'created .dev.vars'": 1,
      "workerd disconnect notices": 1,
    });
    expect(r.unexpected).toBe(0);
  });

  it("keeps lines that only look like noise: other warnings, other exceptions, the project's own notes", () => {
    const kept = [
      '[mf:warn] Queue "warden-events" is not bound',
      "exception = kj/async-io.c++:100: failed: something else",
      "Using secrets defined in .dev.vars and more",
      "console warning; message = Called .text() on an HTTP body which does not appear to be text.",
    ];
    const r = filtered(["a", ...kept, "b"]);
    expect(r.lines).toEqual(["a", ...kept, "b"]);
    expect(r.noise).toEqual({});
  });

  it("passes every line that is neither noise nor a report, whatever the noise between them and the chunking", () => {
    const noiseBlock = fc.constantFrom(...Object.values(NOISE_SAMPLES));
    const plainLine = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.:>()]{0,40}$/);
    const item = fc.oneof(
      noiseBlock.map((lines) => ({ noise: lines })),
      plainLine.map((line) => ({ line })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), fc.integer({ min: 1, max: 50 }), (items, chunk) => {
        const lines = items.flatMap((i) => ("noise" in i ? i.noise : [i.line]));
        const r = filtered(lines, chunk);
        expect(r.lines).toEqual(items.flatMap((i) => ("line" in i ? [i.line] : [])).filter(Boolean));
        const counted = Object.values(r.noise).reduce((a, b) => a + b, 0);
        expect(counted).toBe(items.filter((i) => "noise" in i).length);
      }),
    );
  });

  it("sums the counts up in one line, leaving out kinds that did not occur", () => {
    expect(noiseSummary({ "dead-letter moves": 150, "'created .dev.vars'": 0, "workerd disconnect notices": 2 })).toBe(
      "not shown: 150 dead-letter moves, 2 workerd disconnect notices",
    );
    expect(noiseSummary({})).toBe("");
  });
});
