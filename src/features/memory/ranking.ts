// Memory ranking and lifecycle math (pure): similarity × importance weight × recency decay, use boosts, decay, tiers.
import { DAY_MS } from "../../lib/time";

export { DAY_MS };

import { BASE_IMPORTANCE, IMPORTANCE_CAP, MEMORY_CLASSES, TIERS, USE_BOOST } from "../../lib/memory-vocabulary";
import type { MemoryClass, Tier, WritableClass } from "../../ports/memory-store";

export type { MemoryClass, Tier, WritableClass };
// the classes, tiers and importance bounds are storage facts, kept with the port; re-exported for the domain
export { BASE_IMPORTANCE, IMPORTANCE_CAP, MEMORY_CLASSES, TIERS, USE_BOOST };

/** recency half-lives; null = no decay: 30 d episodic, 90 d kb/semantic, working notes are transient (7 d). */
export const HALF_LIFE_DAYS: Record<MemoryClass, number | null> = {
  working: 7,
  episodic: 30,
  semantic: 90,
  kb: 90,
  rigid: null,
};
export const TASK_TTL_DAYS = 7;

/** 0.5^(age / half-life); 1 when pinned, when the class never decays, or for a future timestamp. */
export function recencyFactor(cls: MemoryClass, pinned: boolean, ageMs: number): number {
  const hl = HALF_LIFE_DAYS[cls];
  if (pinned || hl === null || !(ageMs > 0)) return 1;
  return 0.5 ** (ageMs / (hl * DAY_MS));
}

/** Monotone in the raw importance: 1 at 0, ≈1.30 at the base 10, 3 at the cap. */
export function importanceWeight(raw: number): number {
  const r = Math.min(IMPORTANCE_CAP, Math.max(0, Number.isFinite(raw) ? raw : 0));
  return 1 + Math.log10(1 + r / 10);
}

/** +8 per validated use, capped at 1000. */
export function boostImportance(raw: number, uses = 1): number {
  return Math.min(IMPORTANCE_CAP, Math.max(0, raw) + USE_BOOST * Math.max(0, uses));
}

export type RankInput = {
  id: string;
  similarity: number;
  importance: number;
  cls: MemoryClass;
  pinned: boolean;
  /** when the memory was written or last reinforced by a near-duplicate write */
  refreshedAt: number;
};
export type Ranked = RankInput & { score: number; scores: { similarity: number; importance: number; recency: number } };

export function scoreOne(m: RankInput, now: number): Ranked {
  const similarity = Math.max(0, Math.min(1, m.similarity));
  const importance = importanceWeight(m.importance);
  const recency = recencyFactor(m.cls, m.pinned, now - m.refreshedAt);
  return { ...m, score: similarity * importance * recency, scores: { similarity, importance, recency } };
}

/** Best first; equal scores by id ascending, so the order never depends on the index's. */
export function rankMemories(items: RankInput[], now: number, topK: number): Ranked[] {
  return items
    .map((m) => scoreOne(m, now))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, Math.max(0, topK));
}

/** Task namespaces expire 7 d after the write; everything else keeps no TTL. */
export function expiresAtFor(namespace: string, now: number): number | null {
  return /^team\/[^/]+\/task\//.test(namespace) ? now + TASK_TTL_DAYS * DAY_MS : null;
}
