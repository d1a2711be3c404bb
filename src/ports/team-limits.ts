// Port: per-team rate-limit overrides by route class (the team_limit table; absent classes use the defaults) and the
// increases pending behind a hard gate (team_limit_request).
import type { AuditEntry } from "./audit-log";

export type TeamLimitRow = { routeClass: string; perTeam: number; perSubject: number; periodS: number };

export interface TeamLimitStore extends TeamLimitRequests {
  forTeam(teamId: string): Promise<TeamLimitRow[]>;
  put(teamId: string, row: TeamLimitRow, now: number): Promise<void>;
  /** Upserts the rows and appends the audit entry in one atomic write: all of it or none. */
  putAll(teamId: string, rows: TeamLimitRow[], now: number, audit: AuditEntry): Promise<void>;
}

/** Limit increases waiting for a second person (a policy_deploy gate of target "limits"). */
export interface TeamLimitRequests {
  /** stores the requested rows as the team's next pending version and returns it */
  addRequest(teamId: string, rows: TeamLimitRow[], requestedBy: string, now: number): Promise<number>;
  /**
   * Applies a pending version: its rows upserted, the request marked applied and the audit entry appended, in one
   * atomic write; false (and nothing written) when the version is not pending.
   */
  applyRequest(teamId: string, version: number, now: number, audit: AuditEntry): Promise<boolean>;
}
