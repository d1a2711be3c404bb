// A per-isolate, per-team read-through cache with a short TTL, one load in flight per team, and local invalidation.
export type TeamCache<T> = {
  get(teamId: string, now: number): Promise<T>;
  /** drop a team's entry after a local write so the next read is fresh */
  invalidate(teamId: string): void;
};

/** `load` gets the previous value (if any) so it can reuse work, e.g. keep a compiled profile of the same version. */
export function createTeamCache<T>(
  load: (teamId: string, previous: T | undefined) => Promise<T>,
  ttlMs: number,
): TeamCache<T> {
  const entries = new Map<string, { value: T; freshUntil: number }>();
  const inflight = new Map<string, Promise<T>>();
  return {
    async get(teamId, now) {
      const hit = entries.get(teamId);
      if (hit && hit.freshUntil > now) return hit.value;
      let pending = inflight.get(teamId);
      if (!pending) {
        pending = load(teamId, hit?.value)
          .then((value) => {
            entries.set(teamId, { value, freshUntil: now + ttlMs });
            return value;
          })
          .finally(() => inflight.delete(teamId));
        inflight.set(teamId, pending);
      }
      return pending;
    },
    invalidate(teamId) {
      entries.delete(teamId);
    },
  };
}
