// One contract for every VectorIndex adapter: the local Durable Object index and Vectorize (over a limit-honouring fake),
// run with workerd's VECTOR_INDEX (vector-index.contract.test.ts) and the Node stand-in's (vector-index.contract.unit.test.ts).
import { describe, expect, it } from "vitest";
import type { VectorIndexDO } from "../../../durable-objects/vector-index-do";
import { createFakeVectorize } from "../../../test/fakes/vectorize";
import { seededRandom as rng } from "../../../test/seeded-random";
import { cosine } from "../../lib/vector-math";
import type { VectorIndex } from "../../ports/vector-index";
import { createDoVectorIndex } from "./durable-object";
import { createPerTeamVectorIndex } from "./per-team";
import { createVectorizeIndex } from "./vectorize";

const DIM = 384;

function randomVectors(n: number, seed: number): Float32Array[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: DIM }, () => r() * 2 - 1));
}
const unit = (i: number) => {
  const v = new Float32Array(DIM);
  v[i] = 1;
  return v;
};

/** The contract for the three adapters, their Durable Object index in `ns` (named after its runtime). */
export function vectorIndexContract(runtime: string, ns: DurableObjectNamespace<VectorIndexDO>) {
  let shardSeq = 0;
  const adapters: [string, () => VectorIndex][] = [
    ["local (VectorIndexDO)", () => createDoVectorIndex(ns)],
    ["vectorize (fake binding)", () => createVectorizeIndex(createFakeVectorize(DIM))],
    [
      "per-team, every shard on Vectorize (fake binding)",
      () =>
        createPerTeamVectorIndex({
          local: createDoVectorIndex(ns),
          vectorize: createVectorizeIndex(createFakeVectorize(DIM)),
          onVectorize: () => true,
        }),
    ],
  ];

  describe.each(adapters)(`VectorIndex contract (${runtime}): %s`, (_name, make) => {
    const fresh = () => ({ index: make(), shard: `contract-${++shardSeq}-${crypto.randomUUID()}` });

    it("returns the exact top-K by cosine, best first, matching a brute-force scan", async () => {
      const { index, shard } = fresh();
      const vs = randomVectors(300, 7);
      await index.upsert(
        shard,
        vs.map((values, i) => ({ id: `v${String(i).padStart(3, "0")}`, values, metadata: { i } })),
      );
      for (const q of randomVectors(5, 99)) {
        const got = await index.query(shard, q, { topK: 10 });
        const exact = vs
          .map((v, i) => ({ id: `v${String(i).padStart(3, "0")}`, score: cosine(q, v) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 10);
        expect(got.map((m) => m.id)).toEqual(exact.map((m) => m.id));
        for (const [i, m] of got.entries()) expect(m.score).toBeCloseTo(exact[i]!.score, 4);
      }
    });

    it("clamps topK to 100 (Vectorize's limit) and never fails on a larger request", async () => {
      const { index, shard } = fresh();
      const vs = randomVectors(150, 3);
      await index.upsert(
        shard,
        vs.map((values, i) => ({ id: `a${i}`, values, metadata: {} })),
      );
      expect(await index.query(shard, vs[0]!, { topK: 500 })).toHaveLength(100);
      expect(await index.query(shard, vs[0]!, { topK: 0 })).toHaveLength(1);
    });

    it("keeps shards apart", async () => {
      const a = fresh();
      const b = { index: a.index, shard: `${a.shard}-other` };
      await a.index.upsert(a.shard, [{ id: "only-in-a", values: unit(1), metadata: {} }]);
      await b.index.upsert(b.shard, [{ id: "only-in-b", values: unit(1), metadata: {} }]);
      expect((await a.index.query(a.shard, unit(1), { topK: 5 })).map((m) => m.id)).toEqual(["only-in-a"]);
      expect((await b.index.query(b.shard, unit(1), { topK: 5 })).map((m) => m.id)).toEqual(["only-in-b"]);
    });

    it("applies metadata filters: implicit $eq, $eq, $ne, $in, $nin", async () => {
      const { index, shard } = fresh();
      const rows = [
        { id: "e1", metadata: { scope: "s1", class: "episodic" } },
        { id: "k1", metadata: { scope: "s1", class: "kb" } },
        { id: "e2", metadata: { scope: "s2", class: "episodic" } },
        { id: "x3", metadata: { scope: "s3", class: "semantic" } },
      ];
      await index.upsert(
        shard,
        rows.map((r, i) => ({ ...r, values: unit(i) })),
      );
      const q = Float32Array.from({ length: DIM }, () => 1);
      const ids = async (filter: Parameters<VectorIndex["query"]>[2]["filter"]) =>
        (await index.query(shard, q, { topK: 10, filter })).map((m) => m.id).sort();
      expect(await ids({ scope: "s1" })).toEqual(["e1", "k1"]);
      expect(await ids({ class: { $eq: "episodic" } })).toEqual(["e1", "e2"]);
      expect(await ids({ scope: { $ne: "s1" } })).toEqual(["e2", "x3"]);
      expect(await ids({ scope: { $in: ["s2", "s3"] } })).toEqual(["e2", "x3"]);
      expect(await ids({ class: { $nin: ["episodic", "kb"] } })).toEqual(["x3"]);
      expect(await ids({ scope: { $in: ["s1"] }, class: "kb" })).toEqual(["k1"]);
    });

    it("replaces on upsert of an existing id and forgets deleted ids", async () => {
      const { index, shard } = fresh();
      await index.upsert(shard, [
        { id: "m", values: unit(0), metadata: { v: 1 } },
        { id: "n", values: unit(5), metadata: { v: 1 } },
      ]);
      await index.upsert(shard, [{ id: "m", values: unit(2), metadata: { v: 2 } }]);
      expect((await index.query(shard, unit(2), { topK: 1 }))[0]).toMatchObject({ id: "m" });
      expect((await index.query(shard, unit(2), { topK: 1 }))[0]!.score).toBeCloseTo(1, 5);
      await index.delete(shard, ["m"]);
      expect((await index.query(shard, unit(2), { topK: 10 })).map((m) => m.id)).toEqual(["n"]);
      await index.delete(shard, ["does-not-exist"]);
    });

    it("orders equal scores by id ascending", async () => {
      const { index, shard } = fresh();
      await index.upsert(
        shard,
        ["c", "a", "b"].map((id) => ({ id, values: unit(3), metadata: {} })),
      );
      expect((await index.query(shard, unit(3), { topK: 3 })).map((m) => m.id)).toEqual(["a", "b", "c"]);
    });

    it("answers many queries in one call exactly as one query each (order, topK clamp, filters, empty list)", async () => {
      const { index, shard } = fresh();
      const vs = randomVectors(120, 11);
      await index.upsert(
        shard,
        vs.map((values, i) => ({ id: `q${String(i).padStart(3, "0")}`, values, metadata: { scope: `s${i % 3}` } })),
      );
      const queries = randomVectors(6, 5).map((vector, i) => ({
        vector,
        topK: [5, 1, 500, 10, 0, 3][i] as number,
        ...(i % 2 ? { filter: { scope: `s${i % 3}` } } : {}),
      }));
      const many = await index.queryMany(shard, queries);
      expect(many).toHaveLength(queries.length);
      for (const [i, q] of queries.entries()) expect(many[i]).toEqual(await index.query(shard, q.vector, q));
      expect(many[2]).toHaveLength(100);
      expect(await index.queryMany(shard, [])).toEqual([]);
    });

    it("answers an empty shard with no matches", async () => {
      const { index, shard } = fresh();
      expect(await index.query(shard, unit(0), { topK: 10 })).toEqual([]);
    });
  });
}

/** The fake Vectorize binding against the limits of the real one (no Durable Object: checked once, in Node). */
export function fakeVectorizeContract() {
  describe("fake Vectorize binding", () => {
    it("refuses what real Vectorize refuses, so the adapter is held to the limits", async () => {
      const fake = createFakeVectorize(DIM);
      await expect(fake.query(Array.from(unit(0)), { topK: 101 })).rejects.toThrow(/topK/);
      await expect(fake.query(Array.from(unit(0)), { topK: 21, returnMetadata: "all" })).rejects.toThrow(/20/);
      await expect(fake.query(Array.from(unit(0)), { topK: 21, returnValues: true })).rejects.toThrow(/20/);
      const adapter = createVectorizeIndex(fake);
      await adapter.upsert(
        "t",
        randomVectors(30, 1).map((values, i) => ({ id: `x${i}`, values, metadata: {} })),
      );
      expect(await adapter.query("t", unit(0), { topK: 100 })).toHaveLength(30);
    });

    it("keeps long shard names within the 64-byte namespace limit", async () => {
      const adapter = createVectorizeIndex(createFakeVectorize(DIM));
      const long = "t".repeat(128);
      await adapter.upsert(long, [{ id: "z", values: unit(0), metadata: {} }]);
      expect(await adapter.query(long, unit(0), { topK: 1 })).toHaveLength(1);
    });
  });
}
