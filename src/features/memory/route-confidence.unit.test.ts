// Route confidence: the Wilson bound's closed form, the team prior, and the totals it is made of.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRIOR,
  PRIOR_WEIGHT,
  routeConfidence,
  routeOutcomeTotals,
  SERVE_THRESHOLD,
  teamPrior,
  wilsonLowerBound,
} from "./route-confidence";

describe("route confidence", () => {
  it("wilsonLowerBound matches the closed form on known values and is 0 without evidence", () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(2, 2)).toBeCloseTo(2 / 3, 10); // (1 + 1/4 − 1/4) / (1 + 1/2)
    expect(wilsonLowerBound(1, 1)).toBeCloseTo(0.5, 10);
    expect(wilsonLowerBound(3, 4)).toBeCloseTo(0.5, 10);
  });

  it("teamPrior is PRIOR_WEIGHT episodes at the team's rate, starting from DEFAULT_PRIOR", () => {
    const fresh = teamPrior({ resolved: 0, failed: 0 });
    const rate = DEFAULT_PRIOR.resolved / (DEFAULT_PRIOR.resolved + DEFAULT_PRIOR.failed);
    expect(fresh.resolved).toBeCloseTo(PRIOR_WEIGHT * rate, 10);
    expect(fresh.resolved + fresh.failed).toBeCloseTo(PRIOR_WEIGHT, 10);
    expect(teamPrior({ resolved: 0, failed: 90 }).resolved).toBeCloseTo(PRIOR_WEIGHT * 0.09, 10);
  });

  it("one resolution is never enough, however reliable the team", () => {
    const certain = teamPrior({ resolved: 10 ** 9, failed: 0 });
    expect(routeConfidence({ resolved: 1, failed: 0 }, certain)).toBeLessThan(SERVE_THRESHOLD);
    expect(routeConfidence({ resolved: 2, failed: 0 }, certain)).toBeGreaterThanOrEqual(SERVE_THRESHOLD);
  });

  it("routeOutcomeTotals counts resolutions and every escalation the environment did not cause", () => {
    expect(
      routeOutcomeTotals([
        { outcome: "resolved" },
        { outcome: "escalated", failureCause: "route" },
        { outcome: "escalated", failureCause: null },
        { outcome: "escalated", failureCause: "unknown" },
        { outcome: "escalated", failureCause: "environment" },
        { outcome: "skipped" },
      ]),
    ).toEqual({ resolved: 1, failed: 3 });
  });
});
