// Port: text → unit-length embedding vectors of a fixed dimension (`EMBEDDING_DIMENSIONS`, src/lib/vector-math.ts).
export interface Embedder {
  readonly model: string;
  readonly dimensions: number;
  /** one L2-normalised vector per text, in order (an empty text gives the zero vector) */
  embed(texts: string[]): Promise<Float32Array[]>;
}
