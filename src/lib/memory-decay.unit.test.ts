// Importance decay arithmetic: half-life per class, never for classes without one, never backwards in time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decayed, halfLifeOf } from "./memory-decay";
import { DAY_MS } from "./time";

describe("memory decay", () => {
  it("halves a score once per half-life and never grows it", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.integer({ min: 1, max: 365 }),
        fc.integer({ min: 0, max: 2000 }),
        (raw, hl, days) => {
          const after = decayed(raw, hl, days * DAY_MS);
          expect(after).toBeLessThanOrEqual(raw);
          expect(decayed(raw, hl, days * DAY_MS + hl * DAY_MS)).toBeCloseTo(after / 2, 9);
        },
      ),
    );
  });

  it("leaves a score as is without a half-life or without elapsed time", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), fc.integer({ min: -DAY_MS, max: 0 }), (raw, back) => {
        expect(decayed(raw, null, 10 * DAY_MS)).toBe(raw);
        expect(decayed(raw, undefined, 10 * DAY_MS)).toBe(raw);
        expect(decayed(raw, 30, back)).toBe(raw);
      }),
    );
  });

  it("reads the half-life of a class, null for an unknown one", () => {
    const rules = { halfLifeDays: { episodic: 30, rigid: null } };
    expect(halfLifeOf(rules, "episodic")).toBe(30);
    expect(halfLifeOf(rules, "rigid")).toBeNull();
    expect(halfLifeOf(rules, "other")).toBeNull();
  });
});
