// Port: a cosine vector index partitioned into shards (one per team), with Vectorize-style metadata filters.

/** Indexed metadata: flat scalars only (like Vectorize's filterable metadata). */
export type VectorMetadata = Record<string, string | number | boolean>;

type Scalar = string | number | boolean;
/** A Vectorize-compatible subset: implicit $eq, or one operator per field. */
export type VectorFilter = Record<
  string,
  Scalar | { $eq: Scalar } | { $ne: Scalar } | { $in: Scalar[] } | { $nin: Scalar[] }
>;

/** A small read model kept beside a vector (local index only), so a query can rank without another read. */
export type VectorCard = Record<string, unknown>;
export type VectorRecord = { id: string; values: ArrayLike<number>; metadata: VectorMetadata; card?: VectorCard };
export type VectorMatch = { id: string; score: number };
export type VectorCardMatch = VectorMatch & { card: VectorCard | null };
export type VectorQuery = { vector: ArrayLike<number>; topK: number; filter?: VectorFilter };

/** Vectorize answers at most 100 matches (20 with metadata or values); every adapter clamps to this. */
export const MAX_TOP_K = 100;

export interface VectorIndex {
  readonly kind: "local" | "vectorize" | "per-team";
  /** insert or replace by id */
  upsert(shard: string, records: VectorRecord[]): Promise<void>;
  delete(shard: string, ids: string[]): Promise<void>;
  /**
   * Cosine similarity, best first; ties broken by id ascending. `topK` is clamped to [1, MAX_TOP_K].
   * Vectorize is eventually consistent: a fresh upsert may take seconds to be visible there.
   */
  query(
    shard: string,
    vector: ArrayLike<number>,
    opts: { topK: number; filter?: VectorFilter },
  ): Promise<VectorMatch[]>;
  /**
   * Many queries in one call, each answered exactly as `query` would (same clamping, order and filter): the local
   * index answers them in one Durable Object round trip, so a group commit's near-duplicate check costs one call.
   */
  queryMany(shard: string, queries: VectorQuery[]): Promise<VectorMatch[][]>;
  /**
   * Optional (the local index has it, Vectorize does not): cards stored beside vectors, returned with matches.
   * Callers keep cards in step with their source of truth and fall back to it when a card is missing.
   */
  setCards?(shard: string, cards: { id: string; card: VectorCard }[]): Promise<void>;
  queryCards?(
    shard: string,
    vector: ArrayLike<number>,
    opts: { topK: number; filter?: VectorFilter },
  ): Promise<VectorCardMatch[]>;
}

/** Evaluates a filter against one record's metadata (shared by the local index and the Vectorize fake). */
export function matchesFilter(meta: VectorMetadata | undefined, filter: VectorFilter | undefined): boolean {
  if (!filter) return true;
  for (const field in filter) {
    const cond = filter[field] as VectorFilter[string];
    const v = meta?.[field];
    if (typeof cond !== "object") {
      if (v !== cond) return false;
    } else if ("$eq" in cond) {
      if (v !== cond.$eq) return false;
    } else if ("$ne" in cond) {
      if (v === cond.$ne) return false;
    } else if ("$in" in cond) {
      if (v === undefined || !cond.$in.includes(v)) return false;
    } else if ("$nin" in cond) {
      if (v !== undefined && cond.$nin.includes(v)) return false;
    }
  }
  return true;
}
