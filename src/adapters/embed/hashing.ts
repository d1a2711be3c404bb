// Embedder: deterministic feature hashing (words, word bigrams, character trigrams) into 384 signed buckets, L2-normalised.

import { EMBEDDING_DIMENSIONS, l2normalize } from "../../lib/vector-math";
import type { Embedder } from "../../ports/embedder";

const WORD = /[\p{L}\p{N}]+/gu;

/** FNV-1a over UTF-16 code units, then a murmur3 finaliser so low bits mix well. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function add(v: Float32Array, feature: string, weight: number) {
  const h = hash32(feature);
  const i = h % v.length;
  v[i] = (v[i] as number) + (h & 0x80000000 ? -weight : weight);
}

/** One text → one unit vector. Same text, same vector, on every machine. */
export function hashEmbed(text: string, dimensions = EMBEDDING_DIMENSIONS): Float32Array {
  const v = new Float32Array(dimensions);
  const words = text.normalize("NFKC").toLowerCase().match(WORD) ?? [];
  for (let w = 0; w < words.length; w++) {
    const word = words[w] as string;
    add(v, `w:${word}`, 1);
    if (w > 0) add(v, `b:${words[w - 1]} ${word}`, 0.7);
    const padded = `<${word}>`;
    if (padded.length > 3) for (let i = 0; i + 3 <= padded.length; i++) add(v, `c:${padded.slice(i, i + 3)}`, 0.35);
  }
  return l2normalize(v);
}

export function createHashingEmbedder(dimensions = EMBEDDING_DIMENSIONS): Embedder {
  return {
    model: `hashing-v1-${dimensions}`,
    dimensions,
    async embed(texts) {
      return texts.map((t) => hashEmbed(t, dimensions));
    },
  };
}
