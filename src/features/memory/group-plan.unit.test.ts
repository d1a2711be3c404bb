// The group commit's plan (fast-check): a group decided at once equals the same writes committed one by one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BASE_IMPORTANCE, IMPORTANCE_CAP, USE_BOOST } from "../../lib/memory-vocabulary";
import { cosine } from "../../lib/vector-math";
import type { Tier } from "../../ports/memory-store";
import { classifyWrite } from "./content";
import { closeIds, NEAR_TOP_K, type Planned, type PlanWrite, planGroup, reinforcedAtBirth } from "./group-plan";

const DIM = 8;
type Doc = {
  id: string;
  namespace: string;
  cls: string;
  text: string;
  scope: string;
  hash: string;
  tier: Tier;
  vector: number[];
};
type W = Omit<PlanWrite, "exact" | "matches">;

/** The index as it answers one query: exact cosine over the scope, best first, ties by id, top-K. */
function indexQuery(docs: Doc[], w: W) {
  return docs
    .filter((d) => d.scope === w.scope)
    .map((d) => ({ id: d.id, score: cosine(w.vector, d.vector) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, NEAR_TOP_K);
}
/** D1's exact-duplicate lookup: the oldest non-archived memory with the hash (docs are kept oldest first). */
const exactOf = (docs: Doc[], hash: string) => docs.find((d) => d.hash === hash && d.tier !== "archived");

/** The sequential path: each write sees everything the writes before it created (the reference). */
function sequential(start: Doc[], writes: W[], newId: () => string): Planned[] {
  const docs = [...start];
  return writes.map((w): Planned => {
    let supersedes = w.supersedes;
    if (!supersedes) {
      const same = exactOf(docs, w.hash);
      if (same) return { kind: "reinforce", of: same.id, tier: same.tier, inGroup: !start.includes(same) };
      const near = indexQuery(docs, w).flatMap((m) => {
        const d = docs.find((x) => x.id === m.id) as Doc;
        return m.score >= 0.85 && d.tier === "hot" ? [{ ...d, similarity: m.score }] : [];
      });
      const o = classifyWrite(w.text, w.namespace, near);
      if (o.kind === "duplicate")
        return { kind: "reinforce", of: o.of, tier: "hot", inGroup: !start.some((d) => d.id === o.of) };
      if (o.kind === "contradiction") supersedes = o.supersedes;
    }
    const id = newId();
    docs.push({ ...w, id, tier: "hot", vector: Array.from(w.vector) });
    return { kind: "create", id, supersedes };
  });
}

/** The group path: lookups against the store before the group, then one plan. */
function grouped(start: Doc[], writes: W[], newId: () => string): Planned[] {
  const looked: PlanWrite[] = writes.map((w) => {
    const same = w.supersedes ? undefined : exactOf(start, w.hash);
    return {
      ...w,
      exact: same ? { id: same.id, tier: same.tier } : undefined,
      matches: w.supersedes ? [] : indexQuery(start, w),
    };
  });
  const wanted = new Set(closeIds(looked));
  const stored = new Map(start.filter((d) => wanted.has(d.id)).map((d) => [d.id, d]));
  return planGroup(looked, stored, newId);
}

const counter = () => {
  let n = 0;
  return () => `mem_${String(++n).padStart(4, "0")}`;
};

// few bases and small noise, so exact twins, near-duplicates (≥ 0.97), contradictions (≥ 0.85) and strangers all occur
const bases = [
  [1, 0, 0, 0, 0, 0, 0, 0],
  [0.6, 0.8, 0, 0, 0, 0, 0, 0],
  [0, 0, 1, 0, 0, 0, 0, 0],
];
const vectorArb = fc
  .tuple(
    fc.integer({ min: 0, max: 2 }),
    fc.constantFrom(0, 0.02, 0.1, 0.3, 0.8),
    fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: DIM, maxLength: DIM }),
  )
  .map(([b, scale, noise]) => (bases[b] as number[]).map((x, i) => x + scale * (noise[i] as number)));
const writeArb = () =>
  fc
    .record({
      ns: fc.constantFrom("team/t/project/a", "team/t/project/b"),
      scope: fc.constantFrom("s1", "s2"),
      topic: fc.integer({ min: 0, max: 3 }),
      negated: fc.boolean(),
      vector: vectorArb,
    })
    .map(
      ({ ns, scope, topic, negated, vector }): Doc => ({
        id: "",
        namespace: ns,
        cls: "episodic",
        text: `topic ${topic}${negated ? " not" : ""} fixed`,
        scope,
        hash: `${ns}|${topic}|${negated}`,
        tier: "hot",
        vector,
      }),
    );
const storedArb = fc
  .array(fc.tuple(writeArb(), fc.constantFrom<Tier>("hot", "hot", "warm", "archived")), { maxLength: 8 })
  .map((xs) => xs.map(([d, tier], i): Doc => ({ ...d, tier, id: `old_${i}` })));
const groupArb = fc.array(fc.tuple(writeArb(), fc.option(fc.constantFrom("old_0", "old_1"), { freq: 5 })), {
  minLength: 1,
  maxLength: 12,
});

describe("group commit plan", () => {
  it("equals the writes committed one by one, for any store and group (exact, near, contradiction, explicit)", () => {
    fc.assert(
      fc.property(storedArb, groupArb, (start, group) => {
        const writes: W[] = group.map(([d, sup]) => ({ ...d, supersedes: sup }));
        expect(grouped(start, writes, counter())).toEqual(sequential(start, writes, counter()));
      }),
      { numRuns: 500 },
    );
  });

  it("catches two near-identical writes in one group: the second reinforces the first", () => {
    const w = (text: string, vector: number[]): PlanWrite => ({
      namespace: "team/t/project/a",
      cls: "semantic",
      text,
      scope: "s",
      hash: text,
      vector,
      supersedes: null,
      exact: undefined,
      matches: [],
    });
    const plan = planGroup(
      [w("export fails on a full disk", [1, 0.01, 0]), w("export fails on a full disk.", [1, 0.02, 0])],
      new Map(),
      counter(),
    );
    expect(plan).toEqual([
      { kind: "create", id: "mem_0001", supersedes: null },
      { kind: "reinforce", of: "mem_0001", tier: "hot", inGroup: true },
    ]);
  });

  it("a contradiction inside a group supersedes the memory created before it; other scopes are not compared", () => {
    const w = (text: string, scope: string): PlanWrite => ({
      namespace: "team/t/project/a",
      cls: "kb",
      text,
      scope,
      hash: `${text}|${scope}`,
      vector: [1, 0, 0],
      supersedes: null,
      exact: undefined,
      matches: [],
    });
    const plan = planGroup(
      [
        w("restart clears the backlog", "s"),
        w("restart does not clear the backlog", "s"),
        w("restart clears the backlog", "x"),
      ],
      new Map(),
      counter(),
    );
    expect(plan).toEqual([
      { kind: "create", id: "mem_0001", supersedes: null },
      { kind: "create", id: "mem_0002", supersedes: "mem_0001" },
      { kind: "create", id: "mem_0003", supersedes: null },
    ]);
  });

  it("reads only stored neighbours at or above the contradiction threshold", () => {
    expect(
      closeIds([
        {
          matches: [
            { id: "a", score: 0.99 },
            { id: "b", score: 0.84 },
          ],
        },
        {
          matches: [
            { id: "c", score: 0.85 },
            { id: "a", score: 0.9 },
          ],
        },
      ]),
    ).toEqual(["a", "c"]);
  });

  it("a memory reinforced at birth carries what `reinforce` would have added, capped", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.nat(), fc.nat(), (times, last, created) => {
        const r = reinforcedAtBirth(times, last, created);
        let importance = BASE_IMPORTANCE;
        for (let i = 0; i < times; i++) importance = Math.min(IMPORTANCE_CAP, importance + USE_BOOST);
        expect(r).toEqual({ importance, reinforceCount: times, refreshedAt: times ? last : created });
      }),
    );
  });
});
