// oncePer builds a key's value on its first call and hands back that same value after, separately per key.
import { describe, expect, it } from "vitest";
import { oncePer } from "./once-per";

describe("oncePer", () => {
  it("builds once per key and returns the same value after", () => {
    const built: object[] = [];
    const boxOf = oncePer((key: object) => {
      built.push(key);
      return { of: key };
    });
    const a = {};
    const b = {};
    const first = boxOf(a);
    expect(boxOf(a)).toBe(first);
    expect(first.of).toBe(a);
    expect(boxOf(b)).not.toBe(first);
    expect(boxOf(b).of).toBe(b);
    expect(built).toEqual([a, b]);
  });
});
