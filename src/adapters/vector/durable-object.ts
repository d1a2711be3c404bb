// VectorIndex over VectorIndexDO: one Durable Object per shard (idFromName), exact cosine in the object.
import type { VectorIndexDO } from "../../../durable-objects/vector-index-do";
import type { VectorIndex } from "../../ports/vector-index";

/** a Float32Array as is (RPC copies it anyway), anything else copied: `Float32Array.from` walks an iterator */
const f32 = (v: ArrayLike<number>) => (v instanceof Float32Array ? v : Float32Array.from(v));

/** records per RPC call, to keep messages well under the RPC size limit */
const UPSERT_CHUNK = 500;

export function createDoVectorIndex(ns: DurableObjectNamespace<VectorIndexDO>): VectorIndex {
  const stub = (shard: string) => ns.get(ns.idFromName(shard));
  return {
    kind: "local",
    async upsert(shard, records) {
      const s = stub(shard);
      for (let i = 0; i < records.length; i += UPSERT_CHUNK) {
        await s.upsert(
          records.slice(i, i + UPSERT_CHUNK).map((r) => ({
            id: r.id,
            values: f32(r.values),
            metadata: r.metadata,
            ...(r.card ? { card: r.card } : {}),
          })),
        );
      }
    },
    async delete(shard, ids) {
      if (ids.length) await stub(shard).delete(ids);
    },
    async query(shard, vector, opts) {
      return stub(shard).query(f32(vector), opts.topK, opts.filter);
    },
    async queryMany(shard, queries) {
      if (!queries.length) return [];
      return stub(shard).queryMany(queries.map((q) => ({ vector: f32(q.vector), topK: q.topK, filter: q.filter })));
    },
    async setCards(shard, cards) {
      if (cards.length) await stub(shard).setCards(cards);
    },
    async queryCards(shard, vector, opts) {
      return stub(shard).queryCards(f32(vector), opts.topK, opts.filter);
    },
  };
}
