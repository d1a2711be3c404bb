// ExactIndex: an in-memory brute-force cosine index (used by VectorIndexDO). Rows live in one contiguous f32 block —
// WebAssembly memory scanned with the SIMD kernel when one is given, else a Float32Array scanned in JavaScript.

import { MAX_TOP_K, matchesFilter } from "../../lib/vector-filter";
import type { VectorFilter, VectorMatch, VectorMetadata } from "../../ports/vector-index";

/** The exports of durable-objects/wasm/cosine.wasm. */
export type ScanKernel = {
  memory: WebAssembly.Memory;
  scan(queryPtr: number, rowsPtr: number, n: number, dim: number, outPtr: number): void;
};

const PAGE = 65536;
/** byte offset of the query (≤ one page) and of the first row in kernel memory */
const Q_PTR = 0;
const ROWS_PTR = PAGE;

export class ExactIndex {
  private vectors: Float32Array;
  private capacity: number;
  private scores: Float32Array;
  private ids: string[] = [];
  private metas: VectorMetadata[] = [];
  private slots = new Map<string, number>();
  private readonly kernel: ScanKernel | undefined;

  constructor(
    readonly dimensions: number,
    initialCapacity = 1024,
    kernel?: ScanKernel,
  ) {
    // the kernel reads 16 floats per step and the query must fit below the first row
    this.kernel = kernel && dimensions % 16 === 0 && dimensions * 4 <= PAGE ? kernel : undefined;
    this.capacity = Math.max(1, initialCapacity);
    this.vectors = new Float32Array(0);
    this.scores = new Float32Array(0);
    this.allocate(this.capacity, false);
  }

  get size(): number {
    return this.ids.length;
  }

  /** true when queries run on the WebAssembly SIMD kernel */
  get accelerated(): boolean {
    return this.kernel !== undefined;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  private allocate(capacity: number, keep: boolean) {
    const floats = capacity * this.dimensions;
    if (this.kernel) {
      const memory = this.kernel.memory;
      const need = ROWS_PTR + floats * 4 + capacity * 4;
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
      // rows stay in place (the block only grows at its end); views must be re-made after memory.grow
      this.vectors = new Float32Array(memory.buffer, ROWS_PTR, floats);
      this.scores = new Float32Array(memory.buffer, ROWS_PTR + floats * 4, capacity);
    } else {
      const grown = new Float32Array(floats);
      if (keep) grown.set(this.vectors.subarray(0, Math.min(this.vectors.length, floats)));
      this.vectors = grown;
      this.scores = new Float32Array(capacity);
    }
    this.capacity = capacity;
  }

  /** Stores a unit-length copy of `values` (so a dot product is the cosine). */
  upsert(id: string, values: ArrayLike<number>, metadata: VectorMetadata): void {
    if (values.length !== this.dimensions)
      throw new Error(`vector has ${values.length} dimensions, index has ${this.dimensions}`);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      // grow by a quarter (not double) so a large shard's peak memory stays near its size
      if (slot + 1 > this.capacity) this.allocate(Math.ceil(this.capacity * 1.25) + 1, true);
      this.ids.push(id);
      this.metas.push(metadata);
      this.slots.set(id, slot);
    } else {
      this.metas[slot] = metadata;
    }
    let norm = 0;
    for (let i = 0; i < values.length; i++) norm += (values[i] as number) ** 2;
    const inv = norm === 0 ? 0 : 1 / Math.sqrt(norm);
    const base = slot * this.dimensions;
    for (let i = 0; i < values.length; i++) this.vectors[base + i] = (values[i] as number) * inv;
  }

  remove(id: string): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    const last = this.ids.length - 1;
    if (slot !== last) {
      const lastId = this.ids[last] as string;
      this.vectors.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.ids[slot] = lastId;
      this.metas[slot] = this.metas[last] as VectorMetadata;
      this.slots.set(lastId, slot);
    }
    this.ids.pop();
    this.metas.pop();
    this.slots.delete(id);
    return true;
  }

  private scoreAll(q: Float32Array): Float32Array {
    const n = this.ids.length;
    const dim = this.dimensions;
    if (this.kernel) {
      new Float32Array(this.kernel.memory.buffer, Q_PTR, dim).set(q);
      this.kernel.scan(Q_PTR, ROWS_PTR, n, dim, ROWS_PTR + this.capacity * dim * 4);
      return this.scores;
    }
    const v = this.vectors;
    const out = this.scores;
    for (let s = 0; s < n; s++) {
      const base = s * dim;
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      let i = 0;
      for (; i + 3 < dim; i += 4) {
        d0 += (q[i] as number) * (v[base + i] as number);
        d1 += (q[i + 1] as number) * (v[base + i + 1] as number);
        d2 += (q[i + 2] as number) * (v[base + i + 2] as number);
        d3 += (q[i + 3] as number) * (v[base + i + 3] as number);
      }
      for (; i < dim; i++) d0 += (q[i] as number) * (v[base + i] as number);
      out[s] = d0 + d1 + d2 + d3;
    }
    return out;
  }

  /** Exact top-K by cosine; equal scores ordered by id ascending. The filter is checked only for would-be entries. */
  query(vector: ArrayLike<number>, topK: number, filter?: VectorFilter): VectorMatch[] {
    const k = Math.max(1, Math.min(MAX_TOP_K, Math.floor(topK)));
    const dim = this.dimensions;
    if (vector.length !== dim) throw new Error(`query has ${vector.length} dimensions, index has ${dim}`);
    const q = new Float32Array(dim);
    let norm = 0;
    for (let i = 0; i < dim; i++) norm += (vector[i] as number) ** 2;
    const inv = norm === 0 ? 0 : 1 / Math.sqrt(norm);
    for (let i = 0; i < dim; i++) q[i] = (vector[i] as number) * inv;
    const hasFilter = filter !== undefined && Object.keys(filter).length > 0;
    const n = this.ids.length;
    const scores = this.scoreAll(q);
    // best-first arrays of length ≤ k
    const topScores: number[] = [];
    const topIds: string[] = [];
    for (let s = 0; s < n; s++) {
      const score = scores[s] as number;
      const len = topScores.length;
      if (len === k) {
        const worst = topScores[len - 1] as number;
        if (score < worst || (score === worst && (this.ids[s] as string) > (topIds[len - 1] as string))) continue;
      }
      if (hasFilter && !matchesFilter(this.metas[s], filter)) continue;
      const id = this.ids[s] as string;
      let pos = len === k ? len - 1 : len;
      while (pos > 0) {
        const ps = topScores[pos - 1] as number;
        if (ps > score || (ps === score && (topIds[pos - 1] as string) < id)) break;
        topScores[pos] = ps;
        topIds[pos] = topIds[pos - 1] as string;
        pos--;
      }
      topScores[pos] = score;
      topIds[pos] = id;
    }
    return topIds.map((id, i) => ({ id, score: topScores[i] as number }));
  }
}
