// ExactIndex: the WebAssembly SIMD kernel and the JavaScript scan give the brute-force answer through growth and removal.
import { describe, expect, it } from "vitest";
import cosineWasm from "../../../durable-objects/wasm/cosine.wasm";
import { nodeMemoryTools } from "../../../test/node-d1/memory";
import { seededRandom as rng } from "../../../test/seeded-random";
import { cosine } from "../../lib/vector-math";
import { ExactIndex, type ScanKernel } from "./exact-index";

const { env } = await nodeMemoryTools();
const DIM = 384;
const kernel = () => new WebAssembly.Instance(cosineWasm, {}).exports as unknown as ScanKernel;

describe.each([
  ["wasm SIMD kernel", kernel],
  ["JavaScript scan", () => undefined],
])("ExactIndex (%s)", (_name, makeKernel) => {
  it("matches a brute-force scan after growing past its capacity and removing rows", () => {
    const r = rng(11);
    const index = new ExactIndex(DIM, 8, makeKernel());
    expect(index.accelerated).toBe(makeKernel() !== undefined);
    const rows = new Map<string, Float32Array>();
    for (let i = 0; i < 700; i++) {
      const v = Float32Array.from({ length: DIM }, () => r() * 2 - 1);
      rows.set(`r${i}`, v);
      index.upsert(`r${i}`, v, { even: i % 2 === 0 });
    }
    for (let i = 0; i < 700; i += 7) {
      index.remove(`r${i}`);
      rows.delete(`r${i}`);
    }
    expect(index.size).toBe(rows.size);
    for (let t = 0; t < 5; t++) {
      const q = Float32Array.from({ length: DIM }, () => r() * 2 - 1);
      const exact = [...rows].map(([id, v]) => ({ id, score: cosine(q, v) })).sort((a, b) => b.score - a.score);
      expect(index.query(q, 20).map((m) => m.id)).toEqual(exact.slice(0, 20).map((m) => m.id));
      const evens = exact.filter((m) => Number(m.id.slice(1)) % 2 === 0).slice(0, 10);
      expect(index.query(q, 10, { even: true }).map((m) => m.id)).toEqual(evens.map((m) => m.id));
    }
  });
});

describe("VectorIndexDO", () => {
  it("scans with the SIMD kernel inside workerd", async () => {
    const stub = env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName("accel-check"));
    expect(await stub.accelerated()).toBe(true);
  });
});
