// Embedder over the Workers AI binding: @cf/baai/bge-small-en-v1.5 (384-d), batched, re-normalised.

import { EMBEDDING_DIMENSIONS, l2normalize } from "../../lib/vector-math";
import type { Embedder } from "../../ports/embedder";

export const BGE_SMALL = "@cf/baai/bge-small-en-v1.5";
/** texts per AI.run call (the model accepts a batch; keep requests small) */
const BATCH = 100;

/** The slice of the `Ai` binding this adapter uses (documented response: `{ shape: [n, 384], data: number[][] }`). */
export type AiBinding = {
  run(model: string, input: { text: string[] }): Promise<unknown>;
};

export function createWorkersAiEmbedder(ai: AiBinding, model = BGE_SMALL): Embedder {
  return {
    model,
    dimensions: EMBEDDING_DIMENSIONS,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH).map((t) => (t.trim() === "" ? " " : t));
        const res = (await ai.run(model, { text: batch })) as { shape?: number[]; data?: unknown };
        const data = res?.data;
        if (!Array.isArray(data) || data.length !== batch.length) {
          throw new Error(
            `workers-ai: expected ${batch.length} embeddings, got ${Array.isArray(data) ? data.length : typeof data}`,
          );
        }
        for (const row of data) {
          if (!Array.isArray(row) || row.length !== EMBEDDING_DIMENSIONS) {
            throw new Error(`workers-ai: expected ${EMBEDDING_DIMENSIONS}-d vectors`);
          }
          out.push(l2normalize(Float32Array.from(row as number[])));
        }
      }
      return out;
    },
  };
}
