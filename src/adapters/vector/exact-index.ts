// ExactIndex: an in-memory brute-force cosine index over one contiguous Float32Array (used by VectorIndexDO).
import { MAX_TOP_K, matchesFilter, type VectorFilter, type VectorMatch, type VectorMetadata } from "../../ports/vector-index";

export class ExactIndex {
  private vectors: Float32Array;
  private ids: string[] = [];
  private metas: VectorMetadata[] = [];
  private slots = new Map<string, number>();

  constructor(
    readonly dimensions: number,
    initialCapacity = 1024,
  ) {
    this.vectors = new Float32Array(initialCapacity * dimensions);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** Stores a unit-length copy of `values` (so a dot product is the cosine). */
  upsert(id: string, values: ArrayLike<number>, metadata: VectorMetadata): void {
    if (values.length !== this.dimensions) throw new Error(`vector has ${values.length} dimensions, index has ${this.dimensions}`);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if ((slot + 1) * this.dimensions > this.vectors.length) {
        // grow by half (not double) so a large shard's peak memory stays near its size
        const grown = new Float32Array(Math.ceil((this.vectors.length * 1.5) / this.dimensions) * this.dimensions + this.dimensions);
        grown.set(this.vectors);
        this.vectors = grown;
      }
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

  /** Exact top-K by cosine; equal scores ordered by id ascending. */
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
    // best-first arrays of length ≤ k
    const topScores: number[] = [];
    const topIds: string[] = [];
    const v = this.vectors;
    const n = this.ids.length;
    for (let s = 0; s < n; s++) {
      if (hasFilter && !matchesFilter(this.metas[s], filter)) continue;
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
      const score = d0 + d1 + d2 + d3;
      const len = topScores.length;
      if (len === k) {
        const worst = topScores[len - 1] as number;
        if (score < worst || (score === worst && (this.ids[s] as string) > (topIds[len - 1] as string))) continue;
      }
      const id = this.ids[s] as string;
      let pos = len === k ? len - 1 : len;
      while (pos > 0) {
        const ps = topScores[pos - 1] as number;
        if (ps > score || (ps === score && (topIds[pos - 1] as string) < id)) break;
        if (pos < k) {
          topScores[pos] = ps;
          topIds[pos] = topIds[pos - 1] as string;
        }
        pos--;
      }
      topScores[pos] = score;
      topIds[pos] = id;
    }
    return topIds.map((id, i) => ({ id, score: topScores[i] as number }));
  }
}
