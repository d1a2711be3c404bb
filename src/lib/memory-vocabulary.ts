// The memory vocabulary every side shares: the writable classes, the tiers, and the importance scale.

export const MEMORY_CLASSES = ["working", "episodic", "semantic", "kb"] as const;
export type WritableClass = (typeof MEMORY_CLASSES)[number];
/** rigid memory (charter, allowlist) is import-only */
export type MemoryClass = WritableClass | "rigid";
export const TIERS = ["hot", "warm", "cold", "archived"] as const;
export type Tier = (typeof TIERS)[number];
/** importance a new memory starts with, what one validated use adds, and the ceiling */
export const BASE_IMPORTANCE = 10;
export const USE_BOOST = 8;
export const IMPORTANCE_CAP = 1000;
