// The per-team vector index: Vectorize teams (one namespace and id scope each) beside VectorIndexDO teams, isolated.
import { describe, expect, it } from "vitest";
import { createFakeVectorize } from "../../../test/fakes/vectorize";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { buildVectorIndex } from "../../adapter-choices";
import { mintToken } from "../../auth/mint";
import { parseConfig } from "../../config";
import { createDoVectorIndex } from "./durable-object";
import { createPerTeamVectorIndex, parseVectorizeTeams } from "./per-team";
import { createVectorizeIndex, VECTORIZE_LIMITS, vectorizeId } from "./vectorize";

const { env, freshTeam, memoryHarness } = await nodeMemoryTools();

const DIM = 384;
const unit = (i: number) => {
  const v = new Float32Array(DIM);
  v[i % DIM] = 1;
  return v;
};

function setup(vectorizeTeams: string[]) {
  const fake = createFakeVectorize(DIM);
  const local = createDoVectorIndex(env.VECTOR_INDEX);
  const teams = new Set(vectorizeTeams);
  const index = createPerTeamVectorIndex({
    local,
    vectorize: createVectorizeIndex(fake),
    onVectorize: (t) => teams.has(t),
  });
  return { fake, local, index };
}

describe("per-team vector index", () => {
  it("sends a Vectorize team's vectors to Vectorize and every other team's to its object", async () => {
    const [big, small] = [freshTeam(), freshTeam()];
    const { fake, local, index } = setup([big]);
    await index.upsert(big, [{ id: "b1", values: unit(1), metadata: {} }]);
    await index.upsert(small, [{ id: "s1", values: unit(1), metadata: {} }]);
    expect(fake.size()).toBe(1);
    expect(await local.query(big, unit(1), { topK: 5 })).toEqual([]);
    expect((await local.query(small, unit(1), { topK: 5 })).map((m) => m.id)).toEqual(["s1"]);
    expect((await index.query(big, unit(1), { topK: 5 })).map((m) => m.id)).toEqual(["b1"]);
    expect((await index.query(small, unit(1), { topK: 5 })).map((m) => m.id)).toEqual(["s1"]);
  });

  it("never reaches team A's Vectorize vectors with team B's shard: query, delete or upsert of the same ids", async () => {
    const [a, b] = [freshTeam(), freshTeam()];
    const { fake, index } = setup([a, b]);
    await index.upsert(a, [
      { id: "shared-id", values: unit(7), metadata: { scope: "org" } },
      { id: "a-only", values: unit(8), metadata: { scope: "org" } },
    ]);
    expect(await index.query(b, unit(7), { topK: 100 })).toEqual([]);
    expect(await index.queryMany(b, [{ vector: unit(8), topK: 100, filter: { scope: "org" } }])).toEqual([[]]);
    // same ids from B's shard: a delete removes nothing of A's, an upsert writes B's own vector beside A's
    await index.delete(b, ["shared-id", "a-only"]);
    await index.upsert(b, [{ id: "shared-id", values: unit(9), metadata: { scope: "org" } }]);
    expect(fake.size()).toBe(3);
    const fromA = await index.query(a, unit(7), { topK: 100 });
    expect(fromA.map((m) => m.id).sort()).toEqual(["a-only", "shared-id"]);
    expect(fromA[0]).toMatchObject({ id: "shared-id" });
    expect(fromA[0]!.score).toBeCloseTo(1, 5);
    expect((await index.query(b, unit(9), { topK: 100 })).map((m) => m.id)).toEqual(["shared-id"]);
    await index.delete(a, ["shared-id"]);
    expect((await index.query(a, unit(7), { topK: 100 })).map((m) => m.id)).toEqual(["a-only"]);
    expect((await index.query(b, unit(9), { topK: 100 })).map((m) => m.id)).toEqual(["shared-id"]);
  });

  it("stays within Vectorize's limits: upserts of 2,500 in batches of ≤ 1,000, topK clamped to 100 without metadata", async () => {
    const team = freshTeam();
    const { fake, index } = setup([team]);
    const records = Array.from({ length: 2500 }, (_, i) => ({
      id: `mem_${String(i).padStart(32, "0")}`,
      values: unit(i),
      metadata: { scope: "org" },
    }));
    await index.upsert(team, records);
    expect(fake.calls.filter((c) => c.startsWith("upsert:"))).toEqual(["upsert:1000", "upsert:1000", "upsert:500"]);
    expect(await index.query(team, unit(3), { topK: 500 })).toHaveLength(100);
    expect(fake.calls.at(-1)).toBe("query:100");
    const cards = await index.queryCards?.(team, unit(3), { topK: 500, filter: { scope: "org" } });
    expect(cards).toHaveLength(100);
    expect(cards?.every((m) => m.card === null)).toBe(true);
  });

  it("keeps scoped ids within the 64-byte id limit for memory ids and refuses longer ids before calling Vectorize", () => {
    const long = "t".repeat(200);
    const scoped = vectorizeId(long, `mem_${"f".repeat(32)}`);
    expect(new TextEncoder().encode(scoped).length).toBeLessThanOrEqual(VECTORIZE_LIMITS.maxIdBytes);
    expect(vectorizeId("team-a", "x")).not.toBe(vectorizeId("team-b", "x"));
    expect(() => vectorizeId("team-a", "x".repeat(48))).toThrow(/too long/);
  });

  it("keeps cards for its object teams and none for Vectorize teams", async () => {
    const [big, small] = [freshTeam(), freshTeam()];
    const { index } = setup([big]);
    for (const t of [big, small]) {
      await index.upsert(t, [{ id: "c1", values: unit(2), metadata: {} }]);
      await index.setCards?.(t, [{ id: "c1", card: { text: "kept" } }]);
    }
    expect(await index.queryCards?.(small, unit(2), { topK: 1 })).toEqual([
      expect.objectContaining({ id: "c1", card: { text: "kept" } }),
    ]);
    expect(await index.queryCards?.(big, unit(2), { topK: 1 })).toEqual([
      expect.objectContaining({ id: "c1", card: null }),
    ]);
  });

  it("serves memory end to end for a Vectorize team and an object team, each seeing only its own", async () => {
    const [big, small] = [freshTeam(), freshTeam()];
    const { fake, index } = setup([big]);
    const h = memoryHarness({ vectorIndex: index });
    const text = "Rollback of the payments worker needs the feature flag cleared first";
    const ids: Record<string, string> = {};
    for (const team of [big, small]) {
      const t = await mintToken({
        secret: env.WARDEN_JWT_SECRET,
        teamId: team,
        scopes: ["memory:read", "memory:write"],
      });
      const w = await h.call("POST", "/v1/memory", {
        token: t,
        body: { namespace: `team/${team}/org`, class: "kb", text },
      });
      expect(w.status).toBe(201);
      ids[team] = w.json.id;
      const q = await h.call("POST", "/v1/memory/query", {
        token: t,
        body: { namespaces: [`team/${team}/org`], text: "payments worker rollback feature flag" },
      });
      expect(q.status).toBe(200);
      expect(q.json.results.map((r: { id: string }) => r.id)).toEqual([w.json.id]);
    }
    expect(fake.size()).toBe(1);
    expect(ids[big]).not.toBe(ids[small]);
  });
});

describe("buildVectorIndex", () => {
  const config = (vars: Record<string, string>) => parseConfig({ ...env, ...vars } as unknown as Env);
  const withVectorize = { ...env, VECTORIZE: createFakeVectorize(DIM) } as unknown as Env;

  it("picks the object index, Vectorize for all, or per team from VECTORIZE_TEAMS", () => {
    expect(buildVectorIndex(config({ VECTOR_INDEX_KIND: "local" }), env).kind).toBe("local");
    expect(buildVectorIndex(config({ VECTOR_INDEX_KIND: "vectorize" }), withVectorize).kind).toBe("vectorize");
    expect(buildVectorIndex(config({ VECTOR_INDEX_KIND: "local", VECTORIZE_TEAMS: "a,b" }), withVectorize).kind).toBe(
      "per-team",
    );
  });

  it("refuses VECTORIZE_TEAMS without the VECTORIZE binding, naming the setting", () => {
    const noBinding = { ...env, VECTORIZE: undefined } as unknown as Env;
    expect(() => buildVectorIndex(config({ VECTOR_INDEX_KIND: "local", VECTORIZE_TEAMS: "a" }), noBinding)).toThrow(
      /VECTORIZE_TEAMS needs the VECTORIZE binding/,
    );
  });

  it("reads VECTORIZE_TEAMS as trimmed, comma-separated team ids", () => {
    expect([...parseVectorizeTeams(" a, b ,,c ")]).toEqual(["a", "b", "c"]);
    expect(parseVectorizeTeams("").size).toBe(0);
  });
});
