// Port: the list of teams whose memory lives in their team object, which the daily memory sweep walks.

export interface MemoryTeamRegistry {
  /** records that the team holds memory (idempotent: a team already listed keeps its row) */
  register(teamId: string, now: number): Promise<void>;
  /** teams not swept since `sweptBefore`, least recently swept first (then by id), at most `limit` */
  due(sweptBefore: number, limit: number): Promise<string[]>;
  markSwept(teamId: string, now: number): Promise<void>;
}
