// camelKeys renames snake_case keys to camelCase and keeps every value; laws checked with fast-check.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { camelCase, camelKeys } from "./camel-keys";

describe("camelKeys", () => {
  it("renames each snake_case key and keeps the values", () => {
    const row = { run_id: "r1", team_id: "t1", goal: "g", tokens_in: 3, failure_class: null };
    expect(camelKeys(row)).toEqual({ runId: "r1", teamId: "t1", goal: "g", tokensIn: 3, failureClass: null });
  });

  it("capitalises a digit-led part as it is", () => {
    expect(camelCase("p_95_ms")).toBe("p95Ms");
  });

  it("keeps a key without underscores and keeps every value (property)", () => {
    const snakeKey = fc
      .array(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join("_"));
    fc.assert(
      fc.property(fc.dictionary(snakeKey, fc.jsonValue()), (row) => {
        const out = camelKeys(row);
        expect(Object.keys(out)).toHaveLength(Object.keys(row).length);
        for (const [key, value] of Object.entries(row)) {
          const renamed = camelCase(key);
          expect(renamed).not.toContain("_");
          expect((out as Record<string, unknown>)[renamed]).toEqual(value);
          if (!key.includes("_")) expect(renamed).toBe(key);
        }
      }),
    );
  });
});
