// Embedders: the hashing embedder's determinism and geometry; the Workers AI adapter against a fake AI binding.
import { describe, expect, it } from "vitest";
import { createFakeAi } from "../../../test/fakes/vectorize";
import { cosine } from "../../lib/vector-math";
import { createHashingEmbedder, hashEmbed } from "./hashing";
import { BGE_SMALL, createWorkersAiEmbedder } from "./workers-ai";

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("hashing embedder", () => {
  it("gives the same 384-d unit vector for the same text", async () => {
    const e = createHashingEmbedder();
    const [a, b] = await e.embed([
      "deploy failed: ERR_TIMEOUT in build step",
      "deploy failed: ERR_TIMEOUT in build step",
    ]);
    expect(a).toHaveLength(384);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(norm(a!)).toBeCloseTo(1, 5);
  });

  it("places related texts closer than unrelated ones", () => {
    const q = hashEmbed("database connection pool exhausted during migration");
    const near = hashEmbed("connection pool exhausted while running the database migration");
    const far = hashEmbed("slack approval card rendered with the wrong colour");
    expect(cosine(q, near)).toBeGreaterThan(cosine(q, far) + 0.3);
  });

  it("normalises full-width characters and case", () => {
    expect(cosine(hashEmbed("ＥＲＲ＿ＴＩＭＥＯＵＴ Build"), hashEmbed("err_timeout build"))).toBeCloseTo(1, 5);
  });

  it("maps an empty text to the zero vector", () => {
    expect(norm(hashEmbed(""))).toBe(0);
  });
});

describe("workers-ai embedder", () => {
  it("calls bge-small with batches of ≤ 100 and returns unit vectors in order", async () => {
    const ai = createFakeAi((t) => hashEmbed(t));
    const e = createWorkersAiEmbedder(ai);
    const texts = Array.from({ length: 230 }, (_, i) => `note ${i}`);
    const out = await e.embed(texts);
    expect(out).toHaveLength(230);
    expect(ai.calls.map((c) => c.n)).toEqual([100, 100, 30]);
    expect(ai.calls.every((c) => c.model === BGE_SMALL)).toBe(true);
    expect(norm(out[7]!)).toBeCloseTo(1, 5);
    expect(cosine(out[7]!, hashEmbed("note 7"))).toBeCloseTo(1, 5);
  });

  it("fails loudly on a malformed response instead of storing garbage", async () => {
    const e = createWorkersAiEmbedder({ run: async () => ({ shape: [1, 3], data: [[1, 2, 3]] }) });
    await expect(e.embed(["x"])).rejects.toThrow(/384/);
    const e2 = createWorkersAiEmbedder({ run: async () => ({}) });
    await expect(e2.embed(["x"])).rejects.toThrow(/expected 1/);
  });
});
