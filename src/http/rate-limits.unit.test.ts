// Route classes, the per-team limits cache and the outage policy (pure; runs in the Node project).
import { describe, expect, it } from "vitest";
import type { TeamLimitRow } from "../ports/team-limits";
import { createTeamLimits, DEFAULT_LIMITS, failsOpen, routeClassOf } from "./rate-limits";

describe("routeClassOf", () => {
  it.each([
    ["POST", "/v1/policy/decide", "decide"],
    ["POST", "/v1/approvals", "approvals"],
    ["POST", "/v1/gates/g1/decision", "approvals"],
    ["POST", "/v1/runs/r1/stop", "approvals"],
    ["POST", "/v1/runs", "runs"],
    ["GET", "/v1/runs/r1", "runs"],
    ["POST", "/v1/runs/r1/orders/o1/lease", "runs"],
    ["POST", "/v1/orders/lease-next", "runs"],
    ["POST", "/v1/memory", "memory_write"],
    ["POST", "/v1/memory/use", "memory_write"],
    ["POST", "/v1/sessions/events", "memory_write"],
    ["POST", "/v1/memory/query", "memory_read"],
    ["POST", "/v1/memory/activate", "memory_read"],
    ["GET", "/v1/memory/m1", "memory_read"],
    ["POST", "/v1/events", "events"],
    ["POST", "/slack/commands", "slack"],
    ["PUT", "/v1/policy/profile", "other"],
    ["POST", "/v1/keys", "other"],
  ])("%s %s → %s", (method, path, cls) => {
    expect(routeClassOf(method, path)).toBe(cls);
  });

  it("fails open only for reads, decide, memory reads and approvals", () => {
    expect(failsOpen("GET", "runs")).toBe(true);
    expect(failsOpen("POST", "decide")).toBe(true);
    expect(failsOpen("POST", "approvals")).toBe(true);
    expect(failsOpen("POST", "memory_read")).toBe(true);
    expect(failsOpen("POST", "runs")).toBe(false);
    expect(failsOpen("POST", "memory_write")).toBe(false);
    expect(failsOpen("POST", "events")).toBe(false);
  });

  it("defaults are sized for a fleet: decide in the thousands per minute per team", () => {
    expect(DEFAULT_LIMITS.decide.perTeam).toBeGreaterThanOrEqual(1000);
    for (const l of Object.values(DEFAULT_LIMITS)) expect(l.perSubject).toBeLessThanOrEqual(l.perTeam);
  });
});

describe("createTeamLimits", () => {
  it("reads a team's rows once per TTL and overlays them on the defaults", async () => {
    let reads = 0;
    let rows: TeamLimitRow[] = [{ routeClass: "decide", perTeam: 9, perSubject: 3, periodS: 10 }];
    const store = {
      forTeam: async () => {
        reads++;
        return rows;
      },
    };
    const limits = createTeamLimits(store, DEFAULT_LIMITS, 60_000);
    const a = await limits.forTeam("t", 0);
    expect(a.decide).toEqual({ perTeam: 9, perSubject: 3, periodS: 10 });
    expect(a.runs).toEqual(DEFAULT_LIMITS.runs);
    rows = [];
    expect((await limits.forTeam("t", 59_999)).decide.perTeam).toBe(9);
    expect(reads).toBe(1);
    expect((await limits.forTeam("t", 60_000)).decide).toEqual(DEFAULT_LIMITS.decide);
    expect(reads).toBe(2);
    // invalidate: the next read goes to the store at once, within the TTL
    rows = [{ routeClass: "decide", perTeam: 7, perSubject: 7, periodS: 60 }];
    limits.invalidate("t");
    expect((await limits.forTeam("t", 60_001)).decide.perTeam).toBe(7);
    expect(reads).toBe(3);
    expect(limits.defaults).toBe(DEFAULT_LIMITS);
  });

  it("ignores unknown classes and serves the defaults when the store fails", async () => {
    const limits = createTeamLimits({
      forTeam: async () => {
        throw new Error("D1 down");
      },
    });
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(await limits.forTeam("t", 0)).toEqual(DEFAULT_LIMITS);
    } finally {
      console.warn = warn;
    }
    const odd = createTeamLimits({
      forTeam: async () => [{ routeClass: "__proto__", perTeam: 1, perSubject: 1, periodS: 1 }],
    });
    expect(await odd.forTeam("t", 0)).toEqual(DEFAULT_LIMITS);
  });
});
