// VectorIndexDO: the embedded exact-cosine vector index for one shard: vectors in the object's SQLite, scanned in memory.
import { DurableObject } from "cloudflare:workers";
import { ExactIndex, type ScanKernel } from "../src/adapters/vector/exact-index";
import { EMBEDDING_DIMENSIONS } from "../src/ports/embedder";
import type { VectorFilter, VectorMatch, VectorMetadata } from "../src/ports/vector-index";
import cosineWasm from "./wasm/cosine.wasm";

/** One SIMD scan kernel per object (its own linear memory); JavaScript scanning when WebAssembly SIMD is unavailable. */
function makeKernel(): ScanKernel | undefined {
  try {
    return new WebAssembly.Instance(cosineWasm, {}).exports as unknown as ScanKernel;
  } catch (e) {
    console.warn(
      JSON.stringify({
        level: "warn",
        msg: "vector index: SIMD kernel unavailable, scanning in JavaScript",
        error: String(e),
      }),
    );
    return undefined;
  }
}

export type DoVectorRecord = { id: string; values: Float32Array; metadata: VectorMetadata };

export class VectorIndexDO extends DurableObject<Env> {
  private index!: ExactIndex;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const sql = ctx.storage.sql;
      sql.exec("CREATE TABLE IF NOT EXISTS vec (id TEXT PRIMARY KEY, meta TEXT NOT NULL, v BLOB NOT NULL)");
      let count = 0;
      for (const row of sql.exec<{ c: number }>("SELECT count(*) AS c FROM vec")) count = row.c;
      this.index = new ExactIndex(EMBEDDING_DIMENSIONS, Math.max(1024, count), makeKernel());
      for (const row of sql.exec<{ id: string; meta: string; v: ArrayBuffer }>("SELECT id, meta, v FROM vec")) {
        this.index.upsert(row.id, new Float32Array(row.v), JSON.parse(row.meta) as VectorMetadata);
      }
    });
  }

  upsert(records: DoVectorRecord[]): number {
    const sql = this.ctx.storage.sql;
    for (const r of records) {
      // validate (dimensions) before persisting
      this.index.upsert(r.id, r.values, r.metadata);
      const copy = new Float32Array(r.values);
      sql.exec(
        "INSERT OR REPLACE INTO vec (id, meta, v) VALUES (?, ?, ?)",
        r.id,
        JSON.stringify(r.metadata),
        copy.buffer,
      );
    }
    return this.index.size;
  }

  delete(ids: string[]): number {
    const sql = this.ctx.storage.sql;
    for (const id of ids) {
      if (this.index.remove(id)) sql.exec("DELETE FROM vec WHERE id = ?", id);
    }
    return this.index.size;
  }

  query(vector: Float32Array, topK: number, filter?: VectorFilter): VectorMatch[] {
    return this.index.query(vector, topK, filter);
  }

  size(): number {
    return this.index.size;
  }

  accelerated(): boolean {
    return this.index.accelerated;
  }
}
