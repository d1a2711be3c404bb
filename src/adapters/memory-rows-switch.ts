// MEMORY_ROWS = "d1-until-migrated": each team's memory rows in D1 until its copy is switched, then in its team object.
import type { MemoryStore } from "../ports/memory-store";

/**
 * Decides per call, by team: a team whose memory_migration row has `switched_at` uses the team object, any other
 * team D1. Switched teams are cached per isolate (a switch is never undone, so the cache cannot go stale); a team
 * not yet switched is asked again on every call, so the switch takes effect on the next request of every isolate.
 * Session episodes and activations are in D1 in both cases.
 */
export function createSwitchingMemoryStore(
  inObject: MemoryStore,
  inD1: MemoryStore,
  isSwitched: (teamId: string) => Promise<boolean>,
): MemoryStore {
  const switched = new Set<string>();
  const storeOf = async (teamId: string) => {
    if (switched.has(teamId)) return inObject;
    if (!(await isSwitched(teamId))) return inD1;
    switched.add(teamId);
    return inObject;
  };
  return {
    async insertDocs(docs) {
      const teams = [...new Set(docs.map((d) => d.teamId))];
      for (const teamId of teams) await (await storeOf(teamId)).insertDocs(docs.filter((d) => d.teamId === teamId));
    },
    deleteDocs: async (teamId, ids) => (await storeOf(teamId)).deleteDocs(teamId, ids),
    getDocs: async (teamId, ids) => (await storeOf(teamId)).getDocs(teamId, ids),
    getHotDocsForActor: async (teamId, ids, actorKey, now) =>
      (await storeOf(teamId)).getHotDocsForActor(teamId, ids, actorKey, now),
    findByContentHash: async (teamId, hash) => (await storeOf(teamId)).findByContentHash(teamId, hash),
    findByContentHashes: async (teamId, hashes) => (await storeOf(teamId)).findByContentHashes(teamId, hashes),
    reinforce: async (teamId, id, now) => (await storeOf(teamId)).reinforce(teamId, id, now),
    recordUses: async (teamId, uses, now) => (await storeOf(teamId)).recordUses(teamId, uses, now),
    rigidDocs: async (teamId, limit) => (await storeOf(teamId)).rigidDocs(teamId, limit),
    archiveRigid: async (teamId, namespace, kind, now) =>
      (await storeOf(teamId)).archiveRigid(teamId, namespace, kind, now),
    insertSessionEvent: (e) => inD1.insertSessionEvent(e),
    sessionEventsForFingerprints: (teamId, fingerprints, limit) =>
      inD1.sessionEventsForFingerprints(teamId, fingerprints, limit),
    recentSessionEvents: (teamId, filter, limit) => inD1.recentSessionEvents(teamId, filter, limit),
    recordActivation: (a) => inD1.recordActivation(a),
    setTier: async (teamId, ids, tier, now) => (await storeOf(teamId)).setTier(teamId, ids, tier, now),
    importanceChangedSince: async (teamId, since, afterId, limit) =>
      (await storeOf(teamId)).importanceChangedSince(teamId, since, afterId, limit),
    hotDocsPage: async (teamId, afterId, limit) => (await storeOf(teamId)).hotDocsPage(teamId, afterId, limit),
  };
}
