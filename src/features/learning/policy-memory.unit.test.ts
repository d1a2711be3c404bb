// Policy memory domain: decay, bounds, circular learning, snapshots and ranking — examples and fast-check properties.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ARCHIVE_AFTER_MS,
  applyOutcome,
  applyRetryObservation,
  archiveCutoff,
  buildSnapshot,
  COLD_START_WEIGHT,
  clampWeight,
  DAY_MS,
  DECAY_FLOOR,
  DEFAULT_CONTEXT_HASH,
  decay,
  deriveRetryAdjustment,
  type EntryState,
  entryView,
  isCircular,
  learnedWeight,
  newEntry,
  parseAll,
  parseEntry,
  rankSkills,
  type SkillOutcome,
  STRAT_RESET_CODE,
  WEIGHT_MAX,
  WEIGHT_MIN,
} from "./policy-memory";

const NOW = Date.UTC(2026, 10, 22, 12);
const ids = { entryId: "pme_1", teamId: "team-a" };
const outcome = (over: Partial<SkillOutcome> = {}): SkillOutcome => ({
  skill: "code.test",
  contextHash: DEFAULT_CONTEXT_HASH,
  success: true,
  failureClass: null,
  costUnits: 100,
  steps: 3,
  ...over,
});

/** A stored row as D1 returns it (integers for booleans, JSON text for recent_outcomes). */
function row(e: Partial<EntryState> & { skill_name: string }): Record<string, unknown> {
  return {
    entry_id: `pme_${e.skill_name}_${e.context_hash ?? "d"}`,
    team_id: "team-a",
    context_hash: DEFAULT_CONTEXT_HASH,
    success_count: 1,
    failure_count: 0,
    avg_cost_units: 10,
    avg_steps: 2,
    base_weight: 1.2,
    learning_stopped: 0,
    archived: 0,
    last_used: NOW,
    created_at: NOW - 10 * DAY_MS,
    ledger_seq: 1,
    ...e,
    recent_outcomes: JSON.stringify(e.recent_outcomes ?? ["success"]),
  };
}

function apply(outcomes: SkillOutcome[], start: EntryState | null = null) {
  let state = start;
  const results = [];
  for (const [i, o] of outcomes.entries()) {
    const r = applyOutcome(state, o, ids, NOW + i);
    results.push(r);
    if (r.kind === "apply") state = r.after;
  }
  return { state, results };
}

describe("decay (W5, R3)", () => {
  it("is 1 on the day of use, 0.95^days after, and never below 0.1", () => {
    expect(decay(NOW, NOW)).toEqual({ raw: 1, factor: 1, archived: false });
    expect(decay(NOW - 10 * DAY_MS, NOW).factor).toBeCloseTo(0.95 ** 10, 12);
    expect(decay(NOW - 400 * DAY_MS, NOW)).toMatchObject({ factor: DECAY_FLOOR, archived: true });
  });

  it("archives exactly once the raw factor falls below 0.1 (after ≈ 44.89 days)", () => {
    expect(ARCHIVE_AFTER_MS / DAY_MS).toBeCloseTo(Math.log(0.1) / Math.log(0.95), 6);
    const at = decay(NOW - ARCHIVE_AFTER_MS, NOW);
    const past = decay(NOW - ARCHIVE_AFTER_MS - 1, NOW);
    expect(at.archived).toBe(false);
    expect(at.raw).toBeGreaterThanOrEqual(0.1);
    expect(past.archived).toBe(true);
    expect(past.raw).toBeLessThan(0.1);
  });

  it("property: the factor lies in [0.1, 1], never grows with age, and archival matches the sweep cutoff", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * DAY_MS }), fc.integer({ min: 0, max: 400 * DAY_MS }), (a, b) => {
        const [young, old] = a <= b ? [a, b] : [b, a];
        const dy = decay(NOW - young, NOW);
        const dold = decay(NOW - old, NOW);
        expect(dy.factor).toBeGreaterThanOrEqual(DECAY_FLOOR);
        expect(dy.factor).toBeLessThanOrEqual(1);
        expect(dold.factor).toBeLessThanOrEqual(dy.factor);
        expect(dold.archived).toBe(NOW - old < archiveCutoff(NOW));
        expect(dold.archived).toBe(dold.raw < DECAY_FLOOR);
      }),
    );
  });

  it("treats a last use in the future as today", () => {
    expect(decay(NOW + DAY_MS, NOW).factor).toBe(1);
  });
});

describe("weights", () => {
  it("start at the cold-start 1.0 and clamp to [0.1, 2.0]", () => {
    expect(learnedWeight(0, 0)).toBe(COLD_START_WEIGHT);
    expect(clampWeight(0.05)).toEqual({ weight: WEIGHT_MIN, clamped: true });
    expect(clampWeight(2.5)).toEqual({ weight: WEIGHT_MAX, clamped: true });
    expect(clampWeight(1.3)).toEqual({ weight: 1.3, clamped: false });
  });

  it("property: a clamped weight is always inside the bounds and unchanged when it already was", () => {
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), (w) => {
        const c = clampWeight(w);
        expect(c.weight).toBeGreaterThanOrEqual(WEIGHT_MIN);
        expect(c.weight).toBeLessThanOrEqual(WEIGHT_MAX);
        expect(c.clamped).toBe(w < WEIGHT_MIN || w > WEIGHT_MAX);
        if (!c.clamped) expect(c.weight).toBe(w);
      }),
    );
  });

  it("clamps a runaway low weight with a warning once failures outweigh successes far enough", () => {
    // alternating classes so the circular-learning breaker never trips
    const failures = Array.from({ length: 40 }, (_, i) =>
      outcome({ success: false, failureClass: i % 2 ? "phase_timeout" : "vibe_fail" }),
    );
    const { state, results } = apply(failures);
    expect(state?.base_weight).toBe(WEIGHT_MIN);
    const warned = results.filter((r) => r.kind === "apply" && r.warnings.length > 0);
    expect(warned.length).toBeGreaterThan(0);
    expect(learnedWeight(0, 39)).toBeLessThan(WEIGHT_MIN);
  });
});

describe("applyOutcome", () => {
  it("creates an entry with counters, averages and ledger seq 1", () => {
    const r = applyOutcome(null, outcome({ costUnits: 120, steps: 4 }), ids, NOW);
    expect(r.kind).toBe("apply");
    if (r.kind !== "apply") return;
    expect(r.after).toMatchObject({
      entry_id: "pme_1",
      success_count: 1,
      failure_count: 0,
      avg_cost_units: 120,
      avg_steps: 4,
      ledger_seq: 1,
      recent_outcomes: ["success"],
      learning_stopped: false,
    });
    expect(r.after.base_weight).toBeCloseTo(4 / 3, 12);
  });

  it("stops learning after three identical failing outcomes in a row, then skips", () => {
    const fail = outcome({ success: false, failureClass: "vibe_fail" });
    const { state, results } = apply([fail, fail, fail, outcome()]);
    expect(results.map((r) => r.kind)).toEqual(["apply", "apply", "apply", "skip"]);
    expect(results[2]?.kind === "apply" && results[2].stoppedNow).toBe(true);
    expect(state).toMatchObject({ learning_stopped: true, failure_count: 3, success_count: 0 });
  });

  it("keeps learning when failures differ or a success breaks the streak", () => {
    const a = outcome({ success: false, failureClass: "vibe_fail" });
    const b = outcome({ success: false, failureClass: "phase_timeout" });
    expect(apply([a, a, b, a, a]).state?.learning_stopped).toBe(false);
    expect(apply([a, a, outcome(), a, a]).state?.learning_stopped).toBe(false);
    expect(isCircular(["success", "success", "success"])).toBe(false);
  });

  const outcomeArb = fc.record({
    skill: fc.constant("s"),
    contextHash: fc.constant(DEFAULT_CONTEXT_HASH),
    success: fc.boolean(),
    failureClass: fc.constantFrom(null, "vibe_fail", "phase_timeout", "crank_blocked"),
    costUnits: fc.double({ min: 0, max: 1e6, noNaN: true }),
    steps: fc.integer({ min: 0, max: 1000 }),
  });

  it("property (W3): counters only grow, one step per applied outcome, weights stay bounded", () => {
    fc.assert(
      fc.property(fc.array(outcomeArb, { maxLength: 40 }), (outcomes) => {
        let state: EntryState | null = null;
        for (const [i, o] of outcomes.entries()) {
          const r = applyOutcome(state, o, ids, NOW + i * DAY_MS);
          if (r.kind === "skip") {
            expect(state?.learning_stopped).toBe(true);
            continue;
          }
          const before = state;
          state = r.after;
          expect(state.success_count + state.failure_count).toBe(
            (before ? before.success_count + before.failure_count : 0) + 1,
          );
          expect(state.success_count).toBeGreaterThanOrEqual(before?.success_count ?? 0);
          expect(state.failure_count).toBeGreaterThanOrEqual(before?.failure_count ?? 0);
          expect(state.ledger_seq).toBe((before?.ledger_seq ?? 0) + 1);
          expect(state.last_used).toBeGreaterThanOrEqual(before?.last_used ?? 0);
          expect(state.base_weight).toBeGreaterThanOrEqual(WEIGHT_MIN);
          expect(state.base_weight).toBeLessThanOrEqual(WEIGHT_MAX);
          expect(state.recent_outcomes.length).toBeLessThanOrEqual(3);
          expect(state.learning_stopped).toBe(isCircular(state.recent_outcomes));
        }
      }),
    );
  });
});

describe("buildSnapshot (R1–R5)", () => {
  it("gives the cold-start defaults for a team with no memory", () => {
    const s = buildSnapshot("team-a", [], [], NOW);
    expect(s).toMatchObject({
      entries: [],
      routing_weights: {},
      retry_adjustments: {},
      reset: null,
      last_updated: null,
    });
    expect(s.taken_at).toBe(new Date(NOW).toISOString());
  });

  it("sorts by skill_name, applies decay to the weight and lists routing weights of the default context", () => {
    const rows = [
      row({ skill_name: "web.search", base_weight: 1.5, last_used: NOW - 10 * DAY_MS }),
      row({ skill_name: "code.edit", base_weight: 0.8 }),
      row({ skill_name: "code.edit", context_hash: "ab".repeat(32), base_weight: 1.9 }),
    ];
    const s = buildSnapshot("team-a", rows, [], NOW);
    expect(s.entries.map((e) => [e.skill_name, e.context_hash.slice(0, 2)])).toEqual([
      ["code.edit", "ab"],
      ["code.edit", "e3"],
      ["web.search", "e3"],
    ]);
    const web = s.entries[2];
    expect(web?.decay_factor).toBeCloseTo(0.95 ** 10, 6);
    expect(web?.effective_weight).toBeCloseTo(1.5 * 0.95 ** 10, 5);
    expect(s.routing_weights).toEqual({ "code.edit": 0.8, "web.search": web?.effective_weight });
  });

  it("clamps a stored weight outside [0.1, 2.0] and says so", () => {
    const s = buildSnapshot("team-a", [row({ skill_name: "x", base_weight: 7 })], [], NOW);
    expect(s.entries[0]?.base_weight).toBe(WEIGHT_MAX);
    expect(s.warnings).toEqual([expect.stringContaining("clamped to 2")]);
    expect(s.reset).toBeNull();
  });

  it.each([
    ["recent_outcomes that is not JSON", { recent_outcomes: "{oops" }],
    ["a negative counter", { success_count: -2 }],
    ["a counter stored as text", { failure_count: "many" }],
    ["a weight that is not a number", { base_weight: null }],
  ])("resets to defaults with DTL-STRAT-001 on %s", (_what, patch) => {
    const bad = { ...row({ skill_name: "b" }), ...patch };
    const s = buildSnapshot("team-a", [row({ skill_name: "a" }), bad], [], NOW);
    expect(s.reset).toMatchObject({ code: STRAT_RESET_CODE });
    expect(s.entries).toEqual([]);
    expect(s.routing_weights).toEqual({});
    expect(s.warnings[0]).toContain(STRAT_RESET_CODE);
  });

  it("resets on a corrupted retry adjustment too", () => {
    const retry = {
      team_id: "team-a",
      failure_class: "vibe_fail",
      recovered_count: 1,
      exhausted_count: 0,
      recovery_attempts_sum: 2,
      backoff_multiplier: 99,
      max_attempts_override: null,
      ledger_seq: 1,
      updated_at: NOW,
    };
    expect(buildSnapshot("team-a", [], [retry], NOW).reset?.code).toBe(STRAT_RESET_CODE);
    expect(buildSnapshot("team-a", [], [{ ...retry, backoff_multiplier: 1.5 }], NOW).retry_adjustments).toEqual({
      vibe_fail: { backoff_multiplier: 1.5, max_attempts_override: null },
    });
  });

  it("property (R2, determinism): any order of the same rows gives the identical snapshot", () => {
    const rowArb = fc.record({
      skill_name: fc.constantFrom("a", "b", "c", "d", "e"),
      base_weight: fc.double({ min: 0.1, max: 2, noNaN: true }),
      last_used: fc.integer({ min: NOW - 90 * DAY_MS, max: NOW }),
      success_count: fc.nat(50),
      ctx: fc.constantFrom(DEFAULT_CONTEXT_HASH, "cd".repeat(32)),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(rowArb, { selector: (r) => `${r.skill_name}${r.ctx}`, maxLength: 10 }),
        fc.infiniteStream(fc.double({ noNaN: true })),
        (specs, randoms) => {
          const rows = specs.map((r) => row({ ...r, context_hash: r.ctx }));
          const shuffled = [...rows].sort(() => (randoms.next().value as number) - 0.5);
          const a = buildSnapshot("team-a", rows, [], NOW);
          expect(buildSnapshot("team-a", shuffled, [], NOW)).toEqual(a);
          const names = a.entries.map((e) => e.skill_name);
          expect(names).toEqual([...names].sort());
        },
      ),
    );
  });
});

describe("rankSkills", () => {
  const snapshot = buildSnapshot(
    "team-a",
    [row({ skill_name: "good", base_weight: 1.8 }), row({ skill_name: "bad", base_weight: 0.3 })],
    [],
    NOW,
  );

  it("orders by effective weight with unknown skills at the cold-start 1.0, ties by name", () => {
    expect(rankSkills(snapshot, ["zeta", "bad", "good", "alpha", "good"], DEFAULT_CONTEXT_HASH)).toEqual([
      { skill: "good", weight: 1.8, source: "learned", archived: false },
      { skill: "alpha", weight: 1, source: "cold_start", archived: false },
      { skill: "zeta", weight: 1, source: "cold_start", archived: false },
      { skill: "bad", weight: 0.3, source: "learned", archived: false },
    ]);
  });

  it("uses only the entries of the asked context", () => {
    expect(rankSkills(snapshot, ["good"], "ff".repeat(32))[0]).toMatchObject({ weight: 1, source: "cold_start" });
  });

  it("property: the ranking is a permutation of the unique skills, best first", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("good", "bad", "x", "y", "z"), { maxLength: 12 }), (skills) => {
        const ranked = rankSkills(snapshot, skills, DEFAULT_CONTEXT_HASH);
        expect(ranked.map((r) => r.skill).sort()).toEqual([...new Set(skills)].sort());
        for (let i = 1; i < ranked.length; i++) {
          expect((ranked[i - 1] as { weight: number }).weight).toBeGreaterThanOrEqual(
            (ranked[i] as { weight: number }).weight,
          );
        }
      }),
    );
  });
});

describe("retry adjustments", () => {
  it("changes nothing below 3 samples", () => {
    expect(deriveRetryAdjustment(2, 0, 6)).toEqual({ backoff_multiplier: 1, max_attempts_override: null });
  });

  it("cuts attempts and doubles back-off when retries rarely help", () => {
    expect(deriveRetryAdjustment(0, 3, 0)).toEqual({ backoff_multiplier: 2, max_attempts_override: 2 });
    expect(deriveRetryAdjustment(1, 9, 2)).toEqual({ backoff_multiplier: 2, max_attempts_override: 2 });
  });

  it("allows one attempt past the mean attempts-to-recovery and backs off longer for late recoveries", () => {
    expect(deriveRetryAdjustment(3, 0, 6)).toEqual({ backoff_multiplier: 1, max_attempts_override: 3 });
    expect(deriveRetryAdjustment(3, 1, 9)).toEqual({ backoff_multiplier: 1.5, max_attempts_override: 4 });
  });

  it("property: adjustments stay within their bounds and counters only grow", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ recovered: fc.nat(3), exhausted: fc.nat(3), extra: fc.nat(10) }), { maxLength: 20 }),
        (observations) => {
          let state = null as ReturnType<typeof applyRetryObservation> | null;
          for (const o of observations) {
            const next = applyRetryObservation(
              state,
              {
                failureClass: "vibe_fail",
                recovered: o.recovered,
                exhausted: o.exhausted,
                recoveryAttempts: o.recovered * 2 + o.extra,
              },
              "team-a",
              NOW,
            );
            expect(next.recovered_count).toBeGreaterThanOrEqual(state?.recovered_count ?? 0);
            expect(next.exhausted_count).toBeGreaterThanOrEqual(state?.exhausted_count ?? 0);
            expect(next.backoff_multiplier).toBeGreaterThanOrEqual(1);
            expect(next.backoff_multiplier).toBeLessThanOrEqual(3);
            if (next.max_attempts_override !== null) {
              expect(next.max_attempts_override).toBeGreaterThanOrEqual(2);
              expect(next.max_attempts_override).toBeLessThanOrEqual(6);
            }
            state = next;
          }
        },
      ),
    );
  });
});

describe("the steps of buildSnapshot", () => {
  const stored = (over: Partial<EntryState> = {}): EntryState => ({
    ...newEntry(ids, "code.test", DEFAULT_CONTEXT_HASH, NOW - DAY_MS),
    ...over,
  });
  const asRow = (e: EntryState) => ({
    ...e,
    recent_outcomes: JSON.stringify(e.recent_outcomes),
    learning_stopped: e.learning_stopped ? 1 : 0,
    archived: e.archived ? 1 : 0,
  });

  it("parseAll: every row parsed in order, or the first failing row's reason", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 10 }), fc.option(fc.nat(9)), (counts, badAt) => {
        const rows: unknown[] = counts.map((n) => asRow(stored({ success_count: n })));
        const corrupt = badAt !== null && badAt < rows.length;
        if (corrupt) rows[badAt] = { ...(rows[badAt] as object), recent_outcomes: "{broken" };
        const parsed = parseAll(rows, parseEntry);
        if (corrupt) expect(parsed).toEqual({ ok: false, reason: expect.stringContaining("recent_outcomes") });
        else expect(parsed.ok && parsed.value.map((e) => e.success_count)).toEqual(counts);
      }),
    );
  });

  it("entryView: decayed at now, weight clamped into [0.1, 2.0] with a warning only when it was outside", () => {
    fc.assert(
      fc.property(fc.double({ min: -5, max: 5, noNaN: true }), fc.nat(100), (weight, days) => {
        const { view, warning } = entryView(stored({ base_weight: weight, last_used: NOW - days * DAY_MS }), NOW);
        const inside = weight >= WEIGHT_MIN && weight <= WEIGHT_MAX;
        expect(warning === null).toBe(inside);
        expect(view.base_weight).toBeGreaterThanOrEqual(WEIGHT_MIN);
        expect(view.base_weight).toBeLessThanOrEqual(WEIGHT_MAX);
        expect(view.decay_factor).toBeCloseTo(decay(NOW - days * DAY_MS, NOW).factor, 5);
        expect(view.effective_weight).toBeLessThanOrEqual(view.base_weight);
      }),
    );
  });
});
