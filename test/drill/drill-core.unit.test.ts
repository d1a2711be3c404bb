// The crash drill's verdict and schedule: each kind of failure is named, a clean drill has none.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DrillObservation, drillProblems, killOffsets } from "./drill-core.ts";

const SKILLS = ["drill.a", "drill.b"];

/** n finished runs, every item acknowledged and passed, each skill learned once per run */
function clean(n: number): DrillObservation {
  const ids = Array.from({ length: n }, (_, i) => `run_${i}`);
  return {
    acked: new Map(ids.map((id) => [id, new Set(["a", "b"])])),
    runs: ids.map((run_id) => ({ run_id, status: "COMPLETE" })),
    items: new Map(
      ids.map((id) => [
        id,
        [
          { item_id: "a", state: "passed" },
          { item_id: "b", state: "passed" },
        ],
      ]),
    ),
    learned: new Map(SKILLS.map((s) => [s, n])),
    skills: SKILLS,
  };
}

describe("drill verdict", () => {
  it("finds nothing wrong in a clean drill of any size", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 50 }), (n) => drillProblems(clean(n)).length === 0));
  });

  it("names a lost completion, a stranded run, a missed and a doubled lesson", () => {
    const o = clean(3);
    o.items.set("run_0", [
      { item_id: "a", state: "passed" },
      { item_id: "b", state: "ready" },
    ]);
    o.runs[1] = { run_id: "run_1", status: "RUNNING" };
    // two runs finished (run_1 did not): drill.a learned once too few, drill.b twice too often
    o.learned.set("drill.a", 1);
    o.learned.set("drill.b", 4);
    expect(drillProblems(o)).toEqual([
      "lost: run_0/b was acknowledged but is ready",
      "stranded: run_1 is RUNNING",
      "learning: drill.a learned 1 times for 2 finished runs",
      "learning: drill.b learned 4 times for 2 finished runs",
    ]);
  });
});

describe("kill schedule", () => {
  it("is sorted, inside the middle 80 % of the span, and the same for the same seed", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1000, max: 600_000 }),
        (seed, k, span) => {
          const a = killOffsets(seed, k, span);
          expect(a).toEqual(killOffsets(seed, k, span));
          expect(a).toHaveLength(k);
          for (let i = 0; i < a.length; i++) {
            expect(a[i]).toBeGreaterThanOrEqual(Math.round(0.1 * span));
            expect(a[i]).toBeLessThanOrEqual(Math.round(0.9 * span));
            if (i > 0) expect(a[i]).toBeGreaterThanOrEqual(a[i - 1] as number);
          }
        },
      ),
    );
  });
});
