// Ranking and lifecycle properties (fast-check): pinning, use boosts, half-lives, deterministic order, tier moves.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  boostImportance,
  DAY_MS,
  expiresAtFor,
  HALF_LIFE_DAYS,
  IMPORTANCE_CAP,
  importanceWeight,
  type RankInput,
  rankMemories,
  recencyFactor,
  scoreOne,
} from "./ranking";

const NOW = Date.UTC(2026, 10, 22);
const cls = fc.constantFrom("working", "episodic", "semantic", "kb") as fc.Arbitrary<RankInput["cls"]>;
const memory = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  similarity: fc.double({ min: -1, max: 1, noNaN: true }),
  importance: fc.double({ min: 0, max: IMPORTANCE_CAP, noNaN: true }),
  cls,
  pinned: fc.boolean(),
  refreshedAt: fc.integer({ min: NOW - 2000 * DAY_MS, max: NOW }),
});

describe("ranking", () => {
  it("never decays a pinned memory, whatever its age or class", () => {
    fc.assert(
      fc.property(memory, fc.integer({ min: 0, max: 10_000 * DAY_MS }), (m, age) => {
        expect(recencyFactor(m.cls, true, age)).toBe(1);
        expect(scoreOne({ ...m, pinned: true, refreshedAt: NOW - age }, NOW).scores.recency).toBe(1);
      }),
    );
  });

  it("ranks a used memory above its unused twin", () => {
    fc.assert(
      fc.property(memory, fc.integer({ min: 1, max: 50 }), (m, uses) => {
        const twin = {
          ...m,
          similarity: Math.max(0.05, Math.abs(m.similarity)),
          importance: Math.min(m.importance, IMPORTANCE_CAP - 8),
        };
        const used = { ...twin, id: `${twin.id}-used`, importance: boostImportance(twin.importance, uses) };
        const unused = { ...twin, id: `${twin.id}-unused` };
        const [first] = rankMemories([unused, used], NOW, 2);
        expect(first!.id).toBe(used.id);
        expect(scoreOne(used, NOW).score).toBeGreaterThan(scoreOne(unused, NOW).score);
      }),
    );
  });

  it("halves recency at the class half-life (and quarters it at two)", () => {
    fc.assert(
      fc.property(fc.constantFrom("working", "episodic", "semantic", "kb") as fc.Arbitrary<RankInput["cls"]>, (c) => {
        const hl = (HALF_LIFE_DAYS[c] as number) * DAY_MS;
        expect(recencyFactor(c, false, 0)).toBe(1);
        expect(recencyFactor(c, false, hl)).toBeCloseTo(0.5, 12);
        expect(recencyFactor(c, false, 2 * hl)).toBeCloseTo(0.25, 12);
      }),
    );
    expect(HALF_LIFE_DAYS.episodic).toBe(30);
    expect(HALF_LIFE_DAYS.kb).toBe(90);
    expect(HALF_LIFE_DAYS.semantic).toBe(90);
  });

  it("decays recency monotonically with age", () => {
    fc.assert(
      fc.property(
        cls,
        fc.integer({ min: 0, max: 1000 * DAY_MS }),
        fc.integer({ min: 1, max: 1000 * DAY_MS }),
        (c, a, d) => {
          expect(recencyFactor(c, false, a + d)).toBeLessThan(recencyFactor(c, false, a) + 1e-15);
        },
      ),
    );
  });

  it("boosts by 8 per use up to 1000, and the weight grows with importance", () => {
    expect(boostImportance(10)).toBe(18);
    expect(boostImportance(996)).toBe(1000);
    expect(boostImportance(1000, 5)).toBe(1000);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 992, noNaN: true }), (raw) => {
        expect(importanceWeight(boostImportance(raw))).toBeGreaterThan(importanceWeight(raw));
      }),
    );
  });

  it("is a product of the three factors shown, and orders equal scores by id", () => {
    fc.assert(
      fc.property(fc.array(memory, { maxLength: 30 }), (ms) => {
        const ranked = rankMemories(ms, NOW, 100);
        for (const r of ranked)
          expect(r.score).toBeCloseTo(r.scores.similarity * r.scores.importance * r.scores.recency, 12);
        for (let i = 1; i < ranked.length; i++) {
          const a = ranked[i - 1]!;
          const b = ranked[i]!;
          expect(a.score > b.score || (a.score === b.score && a.id <= b.id)).toBe(true);
        }
        // order does not depend on input order
        expect(rankMemories([...ms].reverse(), NOW, 100).map((r) => r.id)).toEqual(ranked.map((r) => r.id));
      }),
    );
  });
});

describe("TTL", () => {
  it("gives task namespaces a 7-day TTL and others none", () => {
    expect(expiresAtFor("team/t1/task/abc/notes", NOW)).toBe(NOW + 7 * DAY_MS);
    expect(expiresAtFor("team/t1/org/sop", NOW)).toBeNull();
    expect(expiresAtFor("team/t1/project/p/task/x", NOW)).toBeNull();
  });
});
