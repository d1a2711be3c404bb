// A fake Vectorize binding honouring the documented limits: topK ≤ 100, ≤ 20 with metadata/values, namespaces, filters.
import type { VectorizeBinding } from "../../src/adapters/vector/vectorize";
import { matchesFilter } from "../../src/lib/vector-filter";
import { cosine } from "../../src/lib/vector-math";
import type { VectorFilter, VectorMetadata } from "../../src/ports/vector-index";

type Stored = { id: string; values: number[]; namespace?: string; metadata?: VectorMetadata };

export function createFakeVectorize(dimensions = 384): VectorizeBinding & { size(): number; calls: string[] } {
  const store = new Map<string, Stored>();
  const calls: string[] = [];
  return {
    calls,
    size: () => store.size,
    async upsert(vectors) {
      calls.push(`upsert:${vectors.length}`);
      if (vectors.length > 1000) throw new Error("VECTOR_UPSERT_ERROR: too many vectors in one batch (max 1000)");
      for (const v of vectors) {
        if (v.values.length !== dimensions) throw new Error(`VECTOR_UPSERT_ERROR: expected ${dimensions} dimensions`);
        if (new TextEncoder().encode(v.id).length > 64) throw new Error("VECTOR_UPSERT_ERROR: id longer than 64 bytes");
        if (v.namespace && new TextEncoder().encode(v.namespace).length > 64)
          throw new Error("VECTOR_UPSERT_ERROR: namespace longer than 64 bytes");
        store.set(v.id, { ...v, metadata: v.metadata as VectorMetadata | undefined });
      }
      return { mutationId: `m${calls.length}` };
    },
    async query(vector, options) {
      calls.push(`query:${options.topK}`);
      const topK = options.topK ?? 5;
      const wantsExtra =
        options.returnValues === true ||
        options.returnMetadata === true ||
        options.returnMetadata === "all" ||
        options.returnMetadata === "indexed";
      if (topK > 100) throw new Error("VECTOR_QUERY_ERROR: topK must be ≤ 100");
      if (wantsExtra && topK > 20)
        throw new Error("VECTOR_QUERY_ERROR: topK must be ≤ 20 when returning metadata or values");
      if (vector.length !== dimensions) throw new Error(`VECTOR_QUERY_ERROR: expected ${dimensions} dimensions`);
      const matches = [...store.values()]
        .filter((s) => options.namespace === undefined || s.namespace === options.namespace)
        .filter((s) => matchesFilter(s.metadata, options.filter as VectorFilter | undefined))
        .map((s) => ({ id: s.id, score: cosine(vector, s.values) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, topK);
      return { matches, count: matches.length };
    },
    async deleteByIds(ids) {
      calls.push(`delete:${ids.length}`);
      for (const id of ids) store.delete(id);
      return { mutationId: `m${calls.length}` };
    },
  };
}

/** A fake Workers AI binding: the documented bge-small response shape, with deterministic vectors. */
export function createFakeAi(embed: (t: string) => Float32Array) {
  const calls: { model: string; n: number }[] = [];
  return {
    calls,
    async run(model: string, input: { text: string[] }) {
      calls.push({ model, n: input.text.length });
      if (model !== "@cf/baai/bge-small-en-v1.5") throw new Error(`unknown model ${model}`);
      if (input.text.length > 100) throw new Error("AiError: batch too large");
      return {
        shape: [input.text.length, 384],
        data: input.text.map((t) => Array.from(embed(t)).map((x) => x * 3)),
        pooling: "mean",
      };
    },
  };
}
