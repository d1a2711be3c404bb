// The one budget definition (pure): used is the run's sum, breached only when a step went over a budget.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetStanding } from "./budget";

const caps = { input_tokens: 800, output_tokens: 200, total_tokens: null };

describe("budgetStanding", () => {
  it("a run whose steps each kept the per-step caps is within budget, whatever its sum (470 out over 200/step)", () => {
    const s = budgetStanding(caps, { tokens_in: 300, tokens_out: 470 }, 0);
    expect(s).toMatchObject({ used_total: 770, total_cap: null, breached: false });
    expect(s.text).toBe("770 tokens (300 in · 470 out) · per step ≤ 800 in, ≤ 200 out · within budget");
  });

  it("is breached once a step went over, and names the run cap when there is one", () => {
    const s = budgetStanding({ ...caps, total_tokens: 2000 }, { tokens_in: 10, tokens_out: 5 }, 2);
    expect(s).toMatchObject({ breached: true, breaches: 2, total_cap: 2000 });
    expect(s.text).toBe(
      "15 tokens (10 in · 5 out) of 2000 · per step ≤ 800 in, ≤ 200 out · 2 steps refused over budget",
    );
    expect(budgetStanding(null, { tokens_in: 1, tokens_out: 1 }, 1).text).toBe(
      "2 tokens (1 in · 1 out) · 1 step refused over budget",
    );
  });

  it("breached exactly when a breach was recorded; used is the sum", () => {
    fc.assert(
      fc.property(fc.nat(1e9), fc.nat(1e9), fc.nat(50), fc.option(fc.nat(1e9), { nil: null }), (i, o, n, total) => {
        const s = budgetStanding({ ...caps, total_tokens: total }, { tokens_in: i, tokens_out: o }, n);
        expect(s.breached).toBe(n > 0);
        expect(s.used_total).toBe(i + o);
        expect(s.text.includes("within budget")).toBe(n === 0);
      }),
    );
  });
});
