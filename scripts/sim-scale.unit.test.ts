// Tests of the scale simulation's pure core: loads grow with the fleet, and the breaking points match the limits.
import { describe, expect, it } from "vitest";
import { breakingPoint, exactBreakingPoint, type Fleet, firstToBreak, LIMITS, project } from "./sim-scale-core";

const small: Fleet = { teams: 10, agentsPerTeam: 10, decisionsPerAgentPerSecond: 0.01, memoriesPerTeam: 10_000 };
const load = (f: Fleet, prefix: string, layout: "d1" | "r2" = "d1") =>
  project(f, layout).find((l) => l.limit.startsWith(prefix))?.utilisation ?? NaN;
const D1_SIZE = "D1 database size (decision log + memory rows in one database)";
const issueFleet: Fleet = { teams: 100, agentsPerTeam: 100, decisionsPerAgentPerSecond: 0.01, memoriesPerTeam: 10_000 };

describe("sim:scale core", () => {
  it("a small fleet breaks nothing", () => {
    expect(firstToBreak(project(small, "d1")).utilisation).toBeLessThan(1);
    expect(firstToBreak(project(small, "r2")).utilisation).toBeLessThan(1);
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
    expect(firstToBreak(project(f, "d1")).limit).toMatch(/^Local index|^D1 database size/);
    expect(load(f, "Vectorize vectors")).toBe(1);
  });

  it("every load carries a threshold action", () => {
    for (const layout of ["d1", "r2"] as const)
      for (const l of project(small, layout)) expect(l.action.length).toBeGreaterThan(0);
  });

  it("the d1 layout's first wall is the log's size at ~10 decisions/s (10 teams of 100 agents at 0.01/s)", () => {
    expect(exactBreakingPoint(issueFleet, "teams", D1_SIZE, 1e6, "d1")).toBe(10);
  });

  it("the r2 layout keeps no D1 bytes per decision: the log's D1 size stops growing with the decision rate", () => {
    const slow = { ...issueFleet, memoriesPerTeam: 0, decisionsPerAgentPerSecond: 0.01 };
    const fast = { ...slow, decisionsPerAgentPerSecond: 1 };
    expect(load(fast, "D1 database size", "r2")).toBeCloseTo(load(slow, "D1 database size", "r2"), 10);
    expect(load(fast, "D1 database size", "d1")).toBeCloseTo(100 * load(slow, "D1 database size", "d1"), 6);
  });

  it("the r2 layout moves the first wall of the issue's fleet (grown by teams) more than 60× later", () => {
    const before = exactBreakingPoint(issueFleet, "teams", D1_SIZE, 1e6, "d1") ?? 0;
    const after = Math.min(
      ...project(issueFleet, "r2").map((l) => exactBreakingPoint(issueFleet, "teams", l.limit, 1e7, "r2") ?? Infinity),
    );
    expect(after / before).toBeGreaterThan(60);
    // the wall it then meets is memory rows in D1 (the next threshold), not the decision log
    const atWall = project({ ...issueFleet, teams: after }, "r2")[0];
    expect(atWall?.limit).toBe(D1_SIZE);
    expect(atWall?.utilisation).toBeGreaterThanOrEqual(1);
  });

  it("the do layout keeps no memory bytes or writes in D1: its D1 load does not grow with memories per team", () => {
    const few = { ...issueFleet, memoriesPerTeam: 1_000 };
    const many = { ...issueFleet, memoriesPerTeam: 50_000 };
    expect(load(many, "D1 database size", "do")).toBeCloseTo(load(few, "D1 database size", "do"), 12);
    expect(load(many, "D1 single-writer", "do")).toBeCloseTo(load(few, "D1 single-writer", "do"), 12);
    expect(load(many, "D1 database size", "r2")).toBeGreaterThan(load(few, "D1 database size", "r2"));
  });

  it("the do layout puts on Vectorize only the teams past the local hot set, without their vectors in the object", () => {
    const under = { ...issueFleet, memoriesPerTeam: LIMITS.localIndexHot };
    const over = { ...issueFleet, memoriesPerTeam: 100_000 };
    expect(load(under, "Vectorize vectors", "do")).toBe(0);
    expect(load(under, "Vectorize namespaces", "do")).toBe(0);
    expect(load(over, "Vectorize vectors", "do")).toBeCloseTo((100 * 100_000) / LIMITS.vectorizeVectorsPerIndex, 12);
    expect(load(over, "Vectorize namespaces", "do")).toBeCloseTo(100 / LIMITS.vectorizeNamespacesPerIndex, 12);
    // rows only: a Vectorize team's object holds less per memory than a local team's
    const perMemory = (f: Fleet) =>
      (load(f, "Durable Object storage", "do") * LIMITS.doStorageBytes) / f.memoriesPerTeam;
    expect(perMemory(over)).toBeLessThan(perMemory(under));
  });

  it("the do layout moves the issue fleet's first wall at least 100× later, to D1's size past 10k teams; the queue after", () => {
    const before = exactBreakingPoint(issueFleet, "teams", D1_SIZE, 1e6, "d1") ?? 0;
    const wall = (limit: string) => exactBreakingPoint(issueFleet, "teams", limit, 1e7, "do") ?? Infinity;
    const walls = project(issueFleet, "do").map((l) => ({ limit: l.limit, teams: wall(l.limit) }));
    const first = walls.reduce((a, b) => (b.teams < a.teams ? b : a));
    expect(first.teams / before).toBeGreaterThanOrEqual(100);
    expect(first.limit).toBe(D1_SIZE);
    expect(wall(D1_SIZE)).toBeGreaterThan(10_000);
    // EVENTS carries one escalation per three decisions at worst: 5,000 msgs/s ÷ (1/3) = 15,000 decisions/s (1 per team)
    expect(wall("Queue throughput (EVENTS: decisions, or only escalations from the journal)")).toBe(15_000);
    expect(wall("D1 single-writer throughput (decision log + memory writes)")).toBeGreaterThan(10_000);
  });
});
