// The ReDoS check of `npm test` (scripts/redos-check.mts): it finds every pattern, flags super-linear ones and passes linear ones.
import { describe, expect, it } from "vitest";
import { checkPattern, inventory, literalsOf, nextVerdicts, type Pattern, planChecks } from "./redos-check.mts";

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
        "src/features/memory/guard/recognizers/cloud-secrets.ts",
        "src/features/memory/guard/recognizers/national-ids.ts",
        "src/features/memory/guard/recognizers/quasi.ts",
      ]),
    );
    expect(patterns.length).toBeGreaterThan(100);
  });

  describe("committed verdicts (scripts/redos-verdicts.json)", () => {
    const at = (source: string, where = "f.ts:1"): Pattern => ({ where, source, flags: "g" });
    const passed = (source: string) => ({ source, flags: "g", why: "safe (automaton)" });
    const file = { recheck: "4.5.0", passed: ["a+", "b+", "c+", "d+"].map(passed) };
    const code = ["a+", "b+", "c+", "d+", "e+"].map((s) => at(s));

    it("checks only the patterns the file does not list, each source once", () => {
      const plan = planChecks([...code, at("e+", "g.ts:9")], file, "4.5.0", 0);
      expect(plan.fresh.map((p) => p.source)).toEqual(["e+"]);
    });

    it("checks every pattern when there is no file or it was written by another recheck version", () => {
      expect(planChecks(code, undefined, "4.5.0", 0).fresh).toHaveLength(5);
      const other = planChecks(code, { ...file, recheck: "4.4.0" }, "4.5.0", 0);
      expect(other.fresh).toHaveLength(5);
      expect(other.sample).toEqual([]);
    });

    it("re-checks two listed patterns per day, a different two the next day, all of them within days", () => {
      const day = (d: number) => planChecks(code, file, "4.5.0", d).sample.map((p) => p.source);
      expect(day(0)).toHaveLength(2);
      expect(day(1)).not.toEqual(day(0));
      expect(new Set([0, 1, 2, 3].flatMap(day))).toEqual(new Set(["a+", "b+", "c+", "d+"]));
      expect(day(0)).not.toContain("e+");
    });

    it("keeps only the verdicts of patterns still in the code, sorted, so the file changes only with the code", () => {
      const known = new Map([
        ["g\nz+", passed("z+")],
        ["g\nb+", passed("b+")],
        ["g\na+", passed("a+")],
      ]);
      const next = nextVerdicts([at("b+"), at("a+")], known, "4.5.0");
      expect(next).toEqual({ recheck: "4.5.0", passed: [passed("a+"), passed("b+")] });
    });
  });
});
