// VectorIndex over a Vectorize binding (cosine metric, 384-d): one Vectorize namespace per shard, ids scoped per shard.

import { MAX_TOP_K } from "../../lib/vector-filter";
import type { VectorFilter, VectorIndex, VectorMatch } from "../../ports/vector-index";

/** Vectorize limits (developers.cloudflare.com/vectorize/platform/limits). */
export const VECTORIZE_LIMITS = {
  maxTopK: 100,
  maxTopKWithMetadataOrValues: 20,
  maxUpsertBatch: 1000,
  maxNamespaceBytes: 64,
  maxIdBytes: 64,
} as const;

/** The slice of the Vectorize binding this adapter uses. */
export type VectorizeBinding = {
  upsert(
    vectors: { id: string; values: number[]; namespace?: string; metadata?: Record<string, unknown> }[],
  ): Promise<unknown>;
  query(
    vector: number[],
    options: {
      topK?: number;
      namespace?: string;
      filter?: VectorFilter;
      returnMetadata?: boolean | "none" | "indexed" | "all";
      returnValues?: boolean;
    },
  ): Promise<{ matches: { id: string; score: number }[]; count?: number }>;
  deleteByIds(ids: string[]): Promise<unknown>;
};

function fnv(s: string, seed = 0x811c9dc5): string {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * The id a record has inside Vectorize: `<16 hex of the shard>.<id>`. Vectorize ids are unique per index, not per
 * namespace, so an unscoped id written by one shard would replace (upsert) or remove (deleteByIds) another shard's
 * vector of the same id; scoped, a shard only ever names its own vectors.
 */
export function vectorizeId(shard: string, id: string): string {
  const scoped = `${fnv(shard)}${fnv(shard, 0x01000193)}.${id}`;
  if (new TextEncoder().encode(scoped).length > VECTORIZE_LIMITS.maxIdBytes)
    throw new Error(`vector id too long for Vectorize: ${id.length} chars (at most 47 after the shard scope)`);
  return scoped;
}

/** A shard name that fits Vectorize's 64-byte namespace limit. */
export function vectorizeNamespace(shard: string): string {
  return new TextEncoder().encode(shard).length <= VECTORIZE_LIMITS.maxNamespaceBytes
    ? shard
    : `${shard.slice(0, 40)}~${fnv(shard)}`;
}

export function createVectorizeIndex(binding: VectorizeBinding): VectorIndex {
  const index: VectorIndex = {
    kind: "vectorize",
    async upsert(shard, records) {
      const namespace = vectorizeNamespace(shard);
      for (let i = 0; i < records.length; i += VECTORIZE_LIMITS.maxUpsertBatch) {
        await binding.upsert(
          records.slice(i, i + VECTORIZE_LIMITS.maxUpsertBatch).map((r) => ({
            id: vectorizeId(shard, r.id),
            values: Array.from(r.values),
            namespace,
            metadata: r.metadata,
          })),
        );
      }
    },
    async delete(shard, ids) {
      const scoped = ids.map((id) => vectorizeId(shard, id));
      for (let i = 0; i < scoped.length; i += VECTORIZE_LIMITS.maxUpsertBatch) {
        await binding.deleteByIds(scoped.slice(i, i + VECTORIZE_LIMITS.maxUpsertBatch));
      }
    },
    async query(shard, vector, opts) {
      const topK = Math.max(1, Math.min(MAX_TOP_K, Math.floor(opts.topK)));
      // ids and scores only: metadata would cap topK at 20; the store reads the rows from D1 anyway.
      const res = await binding.query(Array.from(vector), {
        topK,
        namespace: vectorizeNamespace(shard),
        returnMetadata: "none",
        returnValues: false,
        ...(opts.filter && Object.keys(opts.filter).length ? { filter: opts.filter } : {}),
      });
      // the namespace already keeps other shards out; the scope prefix is checked again and stripped
      const prefix = vectorizeId(shard, "");
      const matches: VectorMatch[] = res.matches
        .filter((m) => m.id.startsWith(prefix))
        .map((m) => ({ id: m.id.slice(prefix.length), score: m.score }));
      return matches.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, topK);
    },
    // Vectorize has no multi-query call: the queries go out side by side
    async queryMany(shard, queries) {
      return Promise.all(queries.map((q) => index.query(shard, q.vector, q)));
    },
  };
  return index;
}
