// Tests of the scale simulation's pure core: loads grow with the fleet, and the breaking points match the limits.
import { describe, expect, it } from "vitest";
import { breakingPoint, type Fleet, firstToBreak, LIMITS, project } from "./sim-scale-core";

const small: Fleet = { teams: 10, agentsPerTeam: 10, decisionsPerAgentPerSecond: 0.01, memoriesPerTeam: 10_000 };
const load = (f: Fleet, prefix: string) => project(f).find((l) => l.limit.startsWith(prefix))?.utilisation ?? NaN;

describe("sim:scale core", () => {
  it("a small fleet breaks nothing", () => {
    expect(firstToBreak(project(small)).utilisation).toBeLessThan(1);
  });

  it("the local index breaks exactly past its hot set, whatever the fleet", () => {
    expect(load({ ...small, memoriesPerTeam: LIMITS.localIndexHot }, "Local index")).toBe(1);
    expect(breakingPoint(small, "memoriesPerTeam", "Local index hot set (per team)", 1000, 1e7)).toBe(64_000);
  });

  it("D1 write throughput scales linearly with decisions/s and breaks at the documented rate", () => {
    const a = load(small, "D1 single-writer");
    const b = load({ ...small, teams: 20 }, "D1 single-writer");
    expect(b).toBeCloseTo(2 * a, 10);
    // 1000 writes/s ÷ (1 + 1/20) rows per decision ≈ 952 decisions/s ≈ 4,762 agents at 0.2/s
    expect(
      load({ ...small, decisionsPerAgentPerSecond: 0.2, teams: 1, agentsPerTeam: 4762 }, "D1 single-writer"),
    ).toBeGreaterThanOrEqual(1);
    expect(
      load({ ...small, decisionsPerAgentPerSecond: 0.2, teams: 1, agentsPerTeam: 4761 }, "D1 single-writer"),
    ).toBeLessThan(1);
  });

  it("a million memories per team on 10 teams breaks the local index before Vectorize", () => {
    const f = { ...small, memoriesPerTeam: 1_000_000 };
    expect(firstToBreak(project(f)).limit).toMatch(/^Local index|^D1 database size/);
    expect(load(f, "Vectorize vectors")).toBe(1);
  });

  it("every load carries a threshold action", () => {
    for (const l of project(small)) expect(l.action.length).toBeGreaterThan(0);
  });
});
