// The ReDoS check of `npm test` (scripts/redos-check.mts): it finds every pattern, flags super-linear ones and passes linear ones.
import { describe, expect, it } from "vitest";
import { checkPattern, inventory, literalsOf } from "./redos-check.mts";

describe("redos check", () => {
  it("reads regex literals with their place and flags, and notices regexes built at run time", () => {
    const found = literalsOf("x.ts", 'const a = /ab+c/gi;\nconst b = new RegExp("d" + e);\n');
    expect(found.patterns).toEqual([{ where: "x.ts:1", source: "ab+c", flags: "gi" }]);
    expect(found.dynamic).toBe(true);
    expect(literalsOf("y.ts", "const a = 1 / 2 / 3;").patterns).toEqual([]);
  });

  it("flags a pattern that backtracks quadratically on a long run (the old e-mail rule) and confirms it in V8", async () => {
    const verdict = await checkPattern({
      where: "t",
      source: "[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\\.[a-z]{2,}",
      flags: "g",
    });
    expect(verdict.ok).toBe(false);
    expect(verdict.why).toMatch(/polynomial|exponential/);
  });

  it("passes a pattern whose run can start only once per run of its characters", async () => {
    const verdict = await checkPattern({ where: "t", source: "(?<![a-z.])[a-z.]{1,64}@[a-z]{2,9}", flags: "g" });
    expect(verdict.ok).toBe(true);
  });

  it("covers the guard's run-time patterns and finds no file that builds regexes without listing them", async () => {
    const { patterns, problems } = await inventory();
    expect(problems).toEqual([]);
    const dynamic = patterns.filter((p) => p.where.endsWith("(dynamic)")).map((p) => p.where.split(" ")[0]);
    expect(new Set(dynamic)).toEqual(
      new Set([
        "src/features/memory/guard/detectors.ts",
        "src/features/memory/guard/normalize.ts",
        "src/features/memory/guard/rules.ts",
      ]),
    );
    expect(patterns.length).toBeGreaterThan(100);
  });
});
