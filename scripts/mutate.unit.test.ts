// The mutation check's pieces: where a flip applies (not in comments, imports or generics), one flip, an even sample.
import { describe, expect, it } from "vitest";
import { applySite, mutationSites, spread } from "./mutate.mjs";

describe("mutationSites", () => {
  it("finds spaced operators and whole-word literals in code, not in comments, imports or types", () => {
    const source = [
      "export type Verdict =",
      "  | { ok: true }",
      'import { a } from "./x"; // a === b',
      "// if (a === b) return true;",
      "const ok = a === b && c <= 1;",
      "const list: Array<string> = [];",
      "const trueish = isTrue(false);",
      "return n + 1; // n > 0",
    ].join("\n");
    const got = mutationSites(source).map((s) => `${s.line}:${s.from.trim()}>${s.to.trim()}`);
    expect(got).toEqual(["4:===>!==", "4:<=><", "4:&&>||", "6:false>true", "7:+ 1>- 1"]);
  });
});

describe("applySite", () => {
  it("flips exactly the one site", () => {
    const source = "a === b\nc === d";
    const [, second] = mutationSites(source);
    expect(second && applySite(source, second)).toBe("a === b\nc !== d");
  });
});

describe("spread", () => {
  it("keeps every site when there are few, else an even sample of the asked size", () => {
    expect(spread([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(spread([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 5)).toEqual([0, 2, 4, 6, 8]);
  });
});
