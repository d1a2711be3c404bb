// The failures npm test prints first, read from vitest's JSON report: failed tests with their assertion, files that broke.
import { describe, expect, it } from "vitest";
import { failedTests, formatFailures } from "./failed-tests.mjs";

const ROOT = "/w";
/** A failure message as vitest's JSON reporter writes it: the assertion, a diff, then the stack. */
const MESSAGE = [
  "AssertionError: expected 404 to be 200 // Object.is equality",
  "",
  "- Expected",
  "+ Received",
  "",
  "- 200",
  "+ 404",
  "    at /w/src/features/keys/keys.test.ts:41:27",
  "    at processTicksAndRejections (node:internal/process/task_queues:105:5)",
].join("\n");

const report = {
  testResults: [
    {
      name: "/w/src/features/keys/keys.test.ts",
      status: "failed",
      message: "",
      assertionResults: [
        { fullName: "keys creates a key", status: "passed", failureMessages: [] },
        { fullName: "keys revokes a key", status: "failed", failureMessages: [MESSAGE] },
      ],
    },
    { name: "/w/src/lib/ok.unit.test.ts", status: "passed", message: "", assertionResults: [] },
    {
      name: "/w/src/broken.test.ts",
      status: "failed",
      message: "\u001b[31mSyntaxError: Unexpected token '}'\u001b[39m\n    at parse (file.ts:1:1)",
      assertionResults: [],
    },
  ],
};

describe("failedTests", () => {
  it("names each failed test by file and full name with its assertion and diff head, stack left out", () => {
    const [first] = failedTests(report, ROOT);
    expect(first).toEqual({
      name: "src/features/keys/keys.test.ts > keys revokes a key",
      assertion: [
        "AssertionError: expected 404 to be 200 // Object.is equality",
        "- Expected",
        "+ Received",
        "- 200",
        "+ 404",
      ],
    });
  });

  it("names a file that failed with no failed test (it did not load) with its message, colours stripped", () => {
    expect(failedTests(report, ROOT)).toEqual([
      expect.objectContaining({ name: "src/features/keys/keys.test.ts > keys revokes a key" }),
      { name: "src/broken.test.ts", assertion: ["SyntaxError: Unexpected token '}'"] },
    ]);
  });

  it("finds nothing in a passing report or in no report at all", () => {
    expect(failedTests({ testResults: [report.testResults[1]] }, ROOT)).toEqual([]);
    expect(failedTests(undefined, ROOT)).toEqual([]);
  });

  it("keeps at most six lines of a long message", () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const failures = failedTests(
      {
        testResults: [
          {
            name: "/w/a.test.ts",
            status: "failed",
            assertionResults: [{ fullName: "t", status: "failed", failureMessages: [long] }],
          },
        ],
      },
      ROOT,
    );
    expect(failures[0]?.assertion).toEqual(["line 0", "line 1", "line 2", "line 3", "line 4", "line 5"]);
  });
});

describe("formatFailures", () => {
  it("prints a count, then each name and its assertion indented below it", () => {
    expect(formatFailures([{ name: "a.test.ts > t", assertion: ["AssertionError: no"] }])).toEqual([
      "1 failed:",
      "  FAIL a.test.ts > t",
      "       AssertionError: no",
    ]);
    expect(formatFailures([])).toEqual([]);
  });
});
