// Group commit planning (pure): each write of a group decided in arrival order, exactly as one write at a time would be.

import { BASE_IMPORTANCE, IMPORTANCE_CAP, USE_BOOST } from "../../lib/memory-vocabulary";
import { cosine } from "../../lib/vector-math";
import type { Tier } from "../../ports/memory-store";
import type { VectorMatch } from "../../ports/vector-index";
import { CONTRADICTION_COSINE, classifyWrite, type Neighbour } from "./content";

/** Near neighbours a write is compared with (the index query's topK). */
export const NEAR_TOP_K = 5;

/** One write of a group, with what was looked up for it before the group (D1 and the index, one call each). */
export type PlanWrite = {
  namespace: string;
  cls: string;
  text: string;
  /** the index metadata scope the near-duplicate query filters on */
  scope: string;
  hash: string;
  vector: ArrayLike<number>;
  /** an explicit `supersedes`: no duplicate check, always created */
  supersedes: string | null;
  /** the oldest non-archived stored memory with this content hash (none for an explicit `supersedes`) */
  exact: { id: string; tier: Tier } | undefined;
  /** the index's best NEAR_TOP_K in `scope`, best first (empty for an explicit `supersedes`) */
  matches: VectorMatch[];
};
/** A stored memory named by some write's matches (read from D1 once for the group). */
export type StoredNeighbour = { id: string; namespace: string; cls: string; text: string; tier: Tier };

export type Planned =
  | { kind: "reinforce"; of: string; tier: Tier; inGroup: boolean }
  | { kind: "create"; id: string; supersedes: string | null };

type Created = { id: string; namespace: string; cls: string; text: string; scope: string; vector: ArrayLike<number> };

/** Ids of stored memories close enough (≥ 0.85) to any write to take part in a decision: the group's one D1 read. */
export function closeIds(writes: Pick<PlanWrite, "matches">[]): string[] {
  const ids = new Set<string>();
  for (const w of writes) for (const m of w.matches) if (m.score >= CONTRADICTION_COSINE) ids.add(m.id);
  return [...ids];
}

const byScore = (a: VectorMatch, b: VectorMatch) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The near neighbours write `w` would see if the memories created earlier in its group were already stored: the
 * index's top-K merged with those memories (same scope filter, cosine, ties by id) and cut to top-K again.
 */
function neighboursOf(w: PlanWrite, created: Created[], stored: Map<string, StoredNeighbour>): Neighbour[] {
  const inGroup = new Map(created.filter((c) => c.scope === w.scope).map((c) => [c.id, c]));
  const candidates = [
    ...w.matches,
    ...[...inGroup.values()].map((c) => ({ id: c.id, score: cosine(w.vector, c.vector) })),
  ]
    .sort(byScore)
    .slice(0, NEAR_TOP_K);
  return candidates.flatMap((m) => {
    if (m.score < CONTRADICTION_COSINE) return [];
    const x = inGroup.get(m.id) ?? stored.get(m.id);
    // only hot memories count (a memory created in the group is hot)
    return x && (!("tier" in x) || x.tier === "hot")
      ? [{ id: x.id, namespace: x.namespace, cls: x.cls, text: x.text, similarity: m.score }]
      : [];
  });
}

/**
 * Decides every write of a group in order. A write sees the memories created by the writes before it: the same text
 * reinforces the first of them (after a stored one, which is older), a near-duplicate reinforces it, a contradiction
 * supersedes it, as when the writes had been committed one by one. `newId` names each created memory.
 */
export function planGroup(writes: PlanWrite[], stored: Map<string, StoredNeighbour>, newId: () => string): Planned[] {
  const created: Created[] = [];
  const byHash = new Map<string, string>();
  return writes.map((w): Planned => {
    let supersedes = w.supersedes;
    if (!supersedes) {
      if (w.exact) return { kind: "reinforce", of: w.exact.id, tier: w.exact.tier, inGroup: false };
      const twin = byHash.get(w.hash);
      if (twin) return { kind: "reinforce", of: twin, tier: "hot", inGroup: true };
      const neighbours = neighboursOf(w, created, stored);
      // no close neighbour: a new memory (classifyWrite would say so after normalising the text for its polarity)
      const outcome = neighbours.length ? classifyWrite(w.text, w.namespace, neighbours) : ({ kind: "new" } as const);
      if (outcome.kind === "duplicate") {
        const inGroup = created.some((c) => c.id === outcome.of);
        return { kind: "reinforce", of: outcome.of, tier: "hot", inGroup };
      }
      if (outcome.kind === "contradiction") supersedes = outcome.supersedes;
    }
    const id = newId();
    created.push({ id, namespace: w.namespace, cls: w.cls, text: w.text, scope: w.scope, vector: w.vector });
    if (!byHash.has(w.hash)) byHash.set(w.hash, id);
    return { kind: "create", id, supersedes };
  });
}

/**
 * A memory created and reinforced `times` times in the same group starts as the store's `reinforce` would leave it:
 * +USE_BOOST importance per reinforcement (capped), recency restarted at the last one, the count raised.
 */
export function reinforcedAtBirth(times: number, lastAt: number, createdAt: number) {
  return {
    importance: Math.min(IMPORTANCE_CAP, BASE_IMPORTANCE + USE_BOOST * times),
    reinforceCount: times,
    refreshedAt: times ? lastAt : createdAt,
  };
}
