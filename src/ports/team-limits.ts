// Port: per-team rate-limit overrides by route class (the team_limit table); absent classes use the defaults.
import type { AuditEntry } from "./audit-log";

export type TeamLimitRow = { routeClass: string; perTeam: number; perSubject: number; periodS: number };

export interface TeamLimitStore {
  forTeam(teamId: string): Promise<TeamLimitRow[]>;
  put(teamId: string, row: TeamLimitRow, now: number): Promise<void>;
  /** Upserts the rows and appends the audit entry in one atomic write: all of it or none. */
  putAll(teamId: string, rows: TeamLimitRow[], now: number, audit: AuditEntry): Promise<void>;
}
