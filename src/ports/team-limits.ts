// Port: per-team rate-limit overrides by route class (the team_limit table); absent classes use the defaults.
export type TeamLimitRow = { routeClass: string; perTeam: number; perSubject: number; periodS: number };

export interface TeamLimitStore {
  forTeam(teamId: string): Promise<TeamLimitRow[]>;
  put(teamId: string, row: TeamLimitRow, now: number): Promise<void>;
}
