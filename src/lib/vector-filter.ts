// Vectorize-style metadata filters and the match limit every vector index clamps to (the local index, Vectorize, the test fake).

/** Indexed metadata: flat scalars only (like Vectorize's filterable metadata). */
export type VectorMetadata = Record<string, string | number | boolean>;

type Scalar = string | number | boolean;
/** A Vectorize-compatible subset: implicit $eq, or one operator per field. */
export type VectorFilter = Record<
  string,
  Scalar | { $eq: Scalar } | { $ne: Scalar } | { $in: Scalar[] } | { $nin: Scalar[] }
>;

/** Vectorize answers at most 100 matches (20 with metadata or values); every adapter clamps to this. */
export const MAX_TOP_K = 100;

/** Evaluates a filter against one record's metadata (shared by the local index and the Vectorize fake). */
export function matchesFilter(meta: VectorMetadata | undefined, filter: VectorFilter | undefined): boolean {
  if (!filter) return true;
  for (const field in filter) {
    const cond = filter[field] as VectorFilter[string];
    const v = meta?.[field];
    if (typeof cond !== "object") {
      if (v !== cond) return false;
    } else if ("$eq" in cond) {
      if (v !== cond.$eq) return false;
    } else if ("$ne" in cond) {
      if (v === cond.$ne) return false;
    } else if ("$in" in cond) {
      if (v === undefined || !cond.$in.includes(v)) return false;
    } else if ("$nin" in cond) {
      if (v !== undefined && cond.$nin.includes(v)) return false;
    }
  }
  return true;
}
