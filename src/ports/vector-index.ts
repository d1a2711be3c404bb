// Port: a cosine vector index partitioned into shards (one per team), with Vectorize-style metadata filters.

import type { VectorFilter, VectorMetadata } from "../lib/vector-filter";

export type { VectorFilter, VectorMetadata };

/** A small read model kept beside a vector (local index only), so a query can rank without another read. */
export type VectorCard = Record<string, unknown>;
export type VectorRecord = { id: string; values: ArrayLike<number>; metadata: VectorMetadata; card?: VectorCard };
export type VectorMatch = { id: string; score: number };
export type VectorCardMatch = VectorMatch & { card: VectorCard | null };
export type VectorQuery = { vector: ArrayLike<number>; topK: number; filter?: VectorFilter };

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
