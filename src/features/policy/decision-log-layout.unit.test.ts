// The decision log's R2 layout (pure): keys stay inside their team's prefix, NDJSON round-trips, batch ids ignore order
// and repeats, counters add up to what a per-decision count gives.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  batchIdOf,
  countersOf,
  decodeDecisions,
  encodeDecisions,
  groupByTeamHour,
  HOUR_MS,
  hourName,
  hourOf,
  hourOfKey,
  mergeDecisions,
  objectKey,
  sumCounters,
  teamPrefix,
} from "./decision-log-layout";
import type { LoggedDecision } from "./store/policy-store-port";

const T0 = Date.UTC(2026, 10, 27, 14, 0, 0);

const decisionArb = (teams: string[]) =>
  fc.record({
    decision_id: fc.string({ minLength: 1, maxLength: 12 }),
    team_id: fc.constantFrom(...teams),
    run_id: fc.option(fc.string(), { nil: null }),
    task_id: fc.constant(null),
    inputs: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.integer())),
    inputs_digest: fc.string(),
    profile_version: fc.nat(),
    requested_mode: fc.constantFrom("off", "observe", "enforce"),
    effective_mode: fc.constantFrom("off", "observe", "enforce"),
    ceiling: fc.constantFrom("off", "observe", "enforce"),
    failure_class: fc.option(fc.constantFrom("vibe_fail", "timeout"), { nil: null }),
    attempt_bucket: fc.option(fc.constantFrom("initial", "middle"), { nil: null }),
    rule_id: fc.constantFrom("default.unknown_failure_class", "default.missing_metadata", "enforce.vibe_fail.middle"),
    raw_action: fc.constantFrom("retry", "escalate"),
    selected_action: fc.constantFrom("retry", "escalate", "fallback"),
    created_at: fc.integer({ min: T0 - 48 * HOUR_MS, max: T0 + 48 * HOUR_MS }),
  }) as fc.Arbitrary<LoggedDecision>;

const distinctById = (teams: string[]) =>
  fc.uniqueArray(decisionArb(teams), { selector: (d) => d.decision_id, maxLength: 40 });

describe("decision log keys", () => {
  it("names an object by team, UTC date, hour and batch", () => {
    expect(objectKey("team-a", T0 + 59 * 60_000, "ab12")).toBe("decisions/team-a/2026-11-27/14/ab12.ndjson");
    expect(hourName(T0)).toBe("2026-11-27T14:00:00Z");
    expect(hourOfKey("team-a", "decisions/team-a/2026-11-27/14/ab12.ndjson")).toBe(T0);
    expect(hourOfKey("team-a", "decisions/team-a/2026-11-27/14/manifest.json")).toBeNull();
  });

  it("keeps every team's keys under its own prefix, whatever its id holds", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.integer({ min: 0, max: 4e12 }), (a, b, at) => {
        fc.pre(a !== b);
        const key = objectKey(a, at, "0f");
        expect(key.startsWith(teamPrefix(a))).toBe(true);
        // another team's prefix never covers it (".." or "/" in an id cannot reach across)
        expect(key.startsWith(teamPrefix(b))).toBe(false);
        expect(hourOfKey(a, key)).toBe(hourOf(at));
        expect(hourOfKey(b, key)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe("NDJSON and batches", () => {
  it("decodes what it encodes, oldest first, one line per decision id", () => {
    fc.assert(
      fc.property(distinctById(["t"]), (ds) => {
        const text = encodeDecisions([...ds, ...ds]);
        expect(text.split("\n").filter(Boolean)).toHaveLength(ds.length);
        expect(decodeDecisions(text)).toEqual(mergeDecisions(ds));
      }),
      { numRuns: 200 },
    );
  });

  it("skips a torn line and keeps the rest", () => {
    const d = { decision_id: "x", created_at: 1 } as LoggedDecision;
    expect(decodeDecisions(`${JSON.stringify(d)}\n{"decision_id":"y","crea\n`)).toEqual([d]);
  });

  it("gives a group the same batch id and bytes in any order, with repeats", async () => {
    await fc.assert(
      fc.asyncProperty(distinctById(["t"]), fc.integer(), async (ds, seed) => {
        const shuffled = fc.sample(fc.shuffledSubarray(ds, { minLength: ds.length }), { seed, numRuns: 1 })[0] ?? ds;
        const ids = ds.map((d) => d.decision_id);
        expect(await batchIdOf([...shuffled.map((d) => d.decision_id), ...ids])).toBe(await batchIdOf(ids));
        expect(encodeDecisions(shuffled)).toBe(encodeDecisions(ds));
      }),
      { numRuns: 100 },
    );
    expect(await batchIdOf(["a"])).not.toBe(await batchIdOf(["a", "b"]));
    expect(await batchIdOf(["a"])).toMatch(/^[0-9a-f]{32}$/);
  });

  it("groups by (team, hour) without losing or moving a decision", () => {
    fc.assert(
      fc.property(distinctById(["a", "b", "c"]), (ds) => {
        const groups = groupByTeamHour(ds);
        expect(groups.flatMap((g) => g.decisions.map((d) => d.decision_id)).sort()).toEqual(
          ds.map((d) => d.decision_id).sort(),
        );
        for (const g of groups)
          for (const d of g.decisions) expect([d.team_id, hourOf(d.created_at)]).toEqual([g.teamId, g.hour]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("counters", () => {
  it("sum to the per-decision counts the metrics read, counting a repeated decision once", () => {
    fc.assert(
      fc.property(distinctById(["t"]), (ds) => {
        const sums = sumCounters(countersOf([...ds, ...ds.slice(0, 3)]));
        expect(sums).toEqual({
          decisions: ds.length,
          escalations: ds.filter((d) => d.selected_action === "escalate").length,
          unknownClass: ds.filter((d) => d.rule_id === "default.unknown_failure_class").length,
          missingMetadata: ds.filter((d) => d.rule_id === "default.missing_metadata").length,
        });
      }),
      { numRuns: 200 },
    );
  });
});
