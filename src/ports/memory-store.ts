// Port: durable memory records (the team object, or D1 until a team is migrated): docs, per-actor importance, use events, session episodes, activations, tier moves.

import type { MemoryClass, Tier, WritableClass } from "../lib/memory-vocabulary";

export type { MemoryClass, Tier, WritableClass };

export type MemDoc = {
  id: string;
  teamId: string;
  namespace: string;
  cls: MemoryClass;
  text: string;
  tags: string[];
  metadata: Record<string, unknown>;
  pinned: boolean;
  tier: Tier;
  supersedes: string | null;
  importance: number;
  createdAt: number;
  refreshedAt: number;
  lastUsedAt: number | null;
  tierChangedAt: number;
  expiresAt: number | null;
  reinforceCount: number;
  contentHash: string | null;
};

/** a doc with the importance the asking actor sees (its own row, else the team row, else the doc's) */
export type MemDocForActor = MemDoc & { actorImportance: number };

export type SessionEventRow = {
  id: string;
  teamId: string;
  sessionKind: string;
  command: string;
  outcome: "resolved" | "escalated" | "skipped";
  needFingerprint: string;
  routeId: string;
  agentId: string;
  sessionId: string;
  diagnosticCodes: string[];
  /** the activation that preceded the session, when the agent sent its id */
  activationId?: string | null;
  /** memory | reasoned, when the agent said */
  routeSource?: string | null;
  /** escalated episodes: route | environment | unknown, when the agent said */
  failureCause?: string | null;
  /** the episode's place in its session (0 first), when the agent numbered it */
  episodeIndex?: number | null;
  /** the route the linked activation offered (null: no link, or it offered none) */
  offeredRouteId?: string | null;
  createdAt: number;
};

export type UseRecord = { docId: string; actorKey: string; runId: string | null; eventId: string };

export interface MemoryStore {
  insertDocs(docs: MemDoc[]): Promise<void>;
  deleteDocs(teamId: string, ids: string[]): Promise<void>;
  getDocs(teamId: string, ids: string[]): Promise<MemDoc[]>;
  /** hot, unexpired docs by id with the actor's importance */
  getHotDocsForActor(teamId: string, ids: string[], actorKey: string, now: number): Promise<MemDocForActor[]>;
  findByContentHash(teamId: string, hash: string): Promise<MemDoc | null>;
  /** the oldest non-archived doc per content hash */
  findByContentHashes(teamId: string, hashes: string[]): Promise<Map<string, MemDoc>>;
  /** a near-duplicate write: +8 importance (team row), recency restarts, count +1 */
  reinforce(teamId: string, id: string, now: number): Promise<void>;
  /** records uses; returns the doc ids whose importance was boosted (duplicates by event id are ignored) */
  recordUses(teamId: string, uses: UseRecord[], now: number): Promise<string[]>;
  rigidDocs(teamId: string, limit: number): Promise<MemDoc[]>;
  archiveRigid(teamId: string, namespace: string, kind: string, now: number): Promise<string[]>;

  insertSessionEvent(e: SessionEventRow): Promise<void>;
  /** all events of the team for these fingerprints (or every fingerprint), oldest first, bounded */
  sessionEventsForFingerprints(
    teamId: string,
    fingerprints: string[] | null,
    limit: number,
  ): Promise<SessionEventRow[]>;
  recentSessionEvents(
    teamId: string,
    filter: { sessionKind?: string; needFingerprint?: string },
    limit: number,
  ): Promise<SessionEventRow[]>;
  recordActivation(a: {
    id: string;
    teamId: string;
    sessionKind: string;
    agentId: string | null;
    needFingerprint: string | null;
    routeId: string | null;
    llmCallsAvoided: number;
    createdAt: number;
  }): Promise<void>;

  // ---- tier moves and index maintenance (the daily sweep itself runs in each team object: TeamMemoryMaintenance) ----
  setTier(teamId: string, ids: string[], tier: Tier, now: number): Promise<void>;
  /** the team's hot docs whose team importance row changed at or after `since`, in doc id order after `afterId` */
  importanceChangedSince(teamId: string, since: number, afterId: string, limit: number): Promise<string[]>;
  /** a team's hot docs in id order after `afterId` (paging for re-indexing) */
  hotDocsPage(teamId: string, afterId: string, limit: number): Promise<MemDoc[]>;
}
