// Port: memory lifecycle for the daily sweep (importance decay, tier moves, TTL expiry) and the vector index hook.

/** The lifecycle numbers the sweep passes in (the adapter holds mechanics, not policy). */
export type TierRules = {
  baseImportance: number;
  /** hot → warm when importance is below this … */
  warmImportanceBelow: number;
  /** … and the memory has been idle (no use, or since creation) this long */
  warmIdleMs: number;
  /** warm → cold after this long in warm */
  coldAfterWarmMs: number;
  /** cold, unpinned episodic memories older than this are deleted; null keeps them */
  deleteColdEpisodicAfterMs: number | null;
  /** team/<id>/task/… memories without expires_at expire this long after creation */
  taskTtlMs: number;
  /** importance half-life per class in days; null = never decays */
  halfLifeDays: Record<string, number | null>;
};

/** What one team's sweep did; `tierLeftIndex` and `expiryLeftIndex` are the hot memories that must leave the index. */
export type TeamSweepCounts = {
  decayed: number;
  toWarm: number;
  toCold: number;
  deleted: number;
  expired: number;
  tierLeftIndex: string[];
  expiryLeftIndex: string[];
};

/**
 * The memory lifecycle per team (memory rows in each team's object): the daily cron asks which teams are due and
 * sweeps each, a bounded number per tick; a team is due again once it has not been swept since `sweptBefore`.
 */
export interface TeamMemoryMaintenance {
  /** teams holding memory not swept since `sweptBefore`, least recently swept first, at most `limit` */
  teamsDue(sweptBefore: number, limit: number): Promise<string[]>;
  /** decay, tier moves and TTL expiry in the team's object, then marks the team swept at `now` */
  sweepTeam(teamId: string, now: number, rules: TierRules): Promise<TeamSweepCounts>;
}

/** Keeps the vector index in step with tier moves: only hot memories are indexed. */
export interface MemoryIndexSync {
  remove(teamId: string, ids: string[]): Promise<void>;
}
