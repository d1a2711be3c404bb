// The fleet's drain stops as soon as every team's reader total reaches what it acknowledged, or the totals stop moving.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DrainEnd, drainRound, startDrain } from "./drain-core";

const limits = { stillLimit: 2, capMs: 180_000 };
const acked = new Map([
  ["a", 3],
  ["b", 5],
]);

describe("drainRound", () => {
  it("ends at the first round in which every team counts what it acknowledged", () => {
    const r = drainRound(
      startDrain(acked.keys()),
      new Map([
        ["a", 3],
        ["b", 5],
      ]),
      acked,
      1_000,
      limits,
    );
    expect(r.end).toBe("complete");
    expect(r.state.pending.size).toBe(0);
  });

  it("polls only the teams still short, and completes when the last one catches up", () => {
    let r = drainRound(
      startDrain(acked.keys()),
      new Map([
        ["a", 3],
        ["b", 1],
      ]),
      acked,
      1_000,
      limits,
    );
    expect(r.end).toBeNull();
    expect([...r.state.pending]).toEqual(["b"]);
    r = drainRound(r.state, new Map([["b", 5]]), acked, 2_000, limits);
    expect(r.end).toBe("complete");
  });

  it("counts a team over its acknowledged total as done (duplicates are the final check's to report)", () => {
    const r = drainRound(startDrain(["a"]), new Map([["a", 4]]), acked, 0, limits);
    expect(r.end).toBe("complete");
  });

  it("stops as stalled after stillLimit rounds without movement, not at the cap", () => {
    const totals = new Map([
      ["a", 1],
      ["b", 1],
    ]);
    let r = drainRound(startDrain(acked.keys()), totals, acked, 1_000, limits);
    expect(r.end).toBeNull();
    r = drainRound(r.state, totals, acked, 2_000, limits);
    expect(r.end).toBeNull();
    r = drainRound(r.state, totals, acked, 3_000, limits);
    expect(r.end).toBe("stalled");
  });

  it("stops at the cap while totals still move", () => {
    const r = drainRound(startDrain(["b"]), new Map([["b", 2]]), acked, 180_000, limits);
    expect(r.end).toBe("cap");
  });

  it("property: ends within (stillLimit + 1) rounds of the totals stopping, and complete iff every team reached its ack", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ack: fc.nat(50), reach: fc.nat(60) }), { minLength: 1, maxLength: 8 }),
        fc.nat(10),
        (teams, stepsPerRound) => {
          const ack = new Map(teams.map((t, i) => [`t${i}`, t.ack]));
          // each team's total climbs by stepsPerRound + 1 per round up to the value it will finally reach
          let state = startDrain(ack.keys());
          let end: DrainEnd | null = null;
          let round = 0;
          for (; end === null && round < 200; round++) {
            const totals = new Map(
              teams.map((t, i) => [`t${i}`, Math.min(t.reach, (round + 1) * (stepsPerRound + 1))] as const),
            );
            ({ state, end } = drainRound(state, totals, ack, round * 1_000, { stillLimit: 2, capMs: 1e12 }));
          }
          const allReach = teams.every((t) => t.reach >= t.ack);
          expect(end).toBe(allReach ? "complete" : "stalled");
          const settledAt = Math.max(...teams.map((t) => Math.ceil(t.reach / (stepsPerRound + 1))));
          expect(round).toBeLessThanOrEqual(settledAt + 3);
        },
      ),
    );
  });
});
