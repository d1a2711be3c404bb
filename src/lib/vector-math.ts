// Vector math every embedder and index shares: the embedding dimension, unit-length scaling, cosine similarity.

/** The dimension of every embedding Warden stores (both embedders produce it). */
export const EMBEDDING_DIMENSIONS = 384;

/** Scales a vector to unit length in place (the zero vector stays zero). */
export function l2normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  if (s === 0) return v;
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  return v;
}

/** Cosine similarity of two vectors (0 when either is the zero vector). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
