// VectorIndex choosing per team: teams configured for Vectorize use it (one namespace each), every other team its DO.
import type { VectorIndex } from "../../ports/vector-index";

export type PerTeamParts = {
  /** the per-team VectorIndexDO index (exact scan, cards beside vectors) */
  local: VectorIndex;
  /** the shared Vectorize index (one namespace and id scope per team) */
  vectorize: VectorIndex;
  /** true for a team whose vectors live in Vectorize (VECTORIZE_TEAMS) */
  onVectorize: (teamId: string) => boolean;
};

/**
 * The shard is the team id (memory calls every method with the verified token's team). A Vectorize team keeps no
 * vectors in its object: an exact scan of a subset cannot give the whole set's top-K, and a team is moved precisely
 * because its hot set no longer fits the object's memory. Its matches carry no card, so memory reads the matched rows
 * from its store (docs/scaling.md, threshold 3). Deletes go to both sides, so vectors the team left behind in its
 * object before the move cannot come back if it is ever moved back without a reindex.
 */
export function createPerTeamVectorIndex(parts: PerTeamParts): VectorIndex {
  const { local, vectorize, onVectorize } = parts;
  const pick = (team: string) => (onVectorize(team) ? vectorize : local);
  return {
    kind: "per-team",
    upsert: (team, records) => pick(team).upsert(team, records),
    async delete(team, ids) {
      if (onVectorize(team)) await Promise.all([vectorize.delete(team, ids), local.delete(team, ids)]);
      else await local.delete(team, ids);
    },
    query: (team, vector, opts) => pick(team).query(team, vector, opts),
    queryMany: (team, queries) => pick(team).queryMany(team, queries),
    async setCards(team, cards) {
      if (!onVectorize(team)) await local.setCards?.(team, cards);
    },
    async queryCards(team, vector, opts) {
      if (!onVectorize(team) && local.queryCards) return local.queryCards(team, vector, opts);
      const matches = await pick(team).query(team, vector, opts);
      return matches.map((m) => ({ ...m, card: null }));
    },
  };
}

/** `VECTORIZE_TEAMS` ("team-a, team-b"): the team ids whose memory vectors live in Vectorize. */
export function parseVectorizeTeams(list: string): ReadonlySet<string> {
  return new Set(
    list
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  );
}
