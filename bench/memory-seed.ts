// Bench-only bulk seed of memories (/__bench/memory-seed): a write's persistence — content hash, embedding, memory rows,
// index vectors and cards — without the guard and duplicate checks, so the memory section can reach 50k in seconds.
import type { Deps } from "../src/deps";
import { contentHash } from "../src/features/memory/content";
import { cardOf, metaOf } from "../src/features/memory/core";
import { parseNamespace } from "../src/features/memory/namespaces";
import { BASE_IMPORTANCE, expiresAtFor, type MemoryClass } from "../src/features/memory/ranking";
import type { MemDoc } from "../src/ports/memory-store";

export type MemorySeed = {
  team: string;
  namespace: string;
  cls: MemoryClass;
  pinned: boolean;
  /** guard-clean, distinct texts (the caller generates them; nothing here checks them) */
  texts: string[];
  now: number;
};

/** Stores `texts` as new memories the way a write that passed its checks does (rows first, then the index). */
export async function seedMemoryTexts(deps: Deps, seed: MemorySeed): Promise<number> {
  const ns = parseNamespace(seed.namespace);
  if (!ns.ok) throw new Error(ns.error);
  const vectors = await deps.embedder.embed(seed.texts);
  const docs: MemDoc[] = await Promise.all(
    seed.texts.map(async (text) => ({
      id: deps.newId("mem"),
      teamId: seed.team,
      namespace: seed.namespace,
      cls: seed.cls,
      text,
      tags: [],
      metadata: {},
      pinned: seed.pinned,
      tier: "hot" as const,
      supersedes: null,
      importance: BASE_IMPORTANCE,
      createdAt: seed.now,
      refreshedAt: seed.now,
      lastUsedAt: null,
      tierChangedAt: seed.now,
      expiresAt: expiresAtFor(seed.namespace, seed.now),
      reinforceCount: 0,
      contentHash: await contentHash(seed.namespace, seed.cls, text),
    })),
  );
  await deps.memoryStore.insertDocs(docs);
  await deps.vectorIndex.upsert(
    seed.team,
    docs.map((doc, i) => ({
      id: doc.id,
      values: vectors[i] as Float32Array,
      metadata: metaOf(doc, ns.value),
      card: cardOf(doc, doc.importance),
    })),
  );
  return docs.length;
}
