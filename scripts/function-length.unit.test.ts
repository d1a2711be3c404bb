// The function-length check: TypeScript's parser finds every kind of function and counts its lines from first to last.
import { describe, expect, it } from "vitest";
import { longFunctions } from "./function-length.mjs";

/** a function body of `n` lines in total (header and closing brace included) */
const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join("\n");

describe("longFunctions", () => {
  it("accepts a function of exactly the limit and flags one line more", () => {
    const ok = `function fits() {\n${body(60)}\n}`;
    const long = `function tooLong() {\n${body(61)}\n}`;
    expect(longFunctions(ok)).toEqual([]);
    expect(longFunctions(long)).toEqual([{ name: "tooLong", line: 1, lines: 61 }]);
  });

  it("finds arrows, methods and closures nested in a factory, each named", () => {
    const text = [
      "export function createStore(db) {",
      "  const helper = () => {",
      body(5),
      "  };",
      "  return {",
      "    async write(x) {",
      body(5),
      "    },",
      "  };",
      "}",
      "class Box {",
      "  size() {",
      body(4),
      "  }",
      "}",
    ].join("\n");
    const found = longFunctions(text, "f.ts", 3).map((f) => f.name);
    expect(found).toEqual(["createStore", "helper", "write", "size"]);
  });

  it("reads TSX and skips declarations without a body", () => {
    const text = `declare function f(): void;\nexport const View = () => (\n  <div>\n    x\n  </div>\n);`;
    expect(longFunctions(text, "v.tsx", 3)).toEqual([{ name: "View", line: 2, lines: 5 }]);
  });
});
