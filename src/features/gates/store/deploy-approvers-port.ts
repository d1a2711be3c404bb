// Port: a team's deploy approvers (deploy_approver) and the roster changes pending behind a hard gate.
import type { AuditEntry } from "../../../ports/audit-log";

export interface DeployApproverStore {
  /** the team's roster, sorted; empty when the team never set one (then any second person decides) */
  forTeam(teamId: string): Promise<string[]>;
  /** stores a whole new roster as the team's next pending version and returns it */
  addRequest(teamId: string, subjects: string[], requestedBy: string, now: number): Promise<number>;
  /**
   * Replaces the roster with a pending version's subjects, marks it applied and appends the audit entry, in one
   * atomic write; false (and nothing written) when the version is not pending.
   */
  applyRequest(teamId: string, version: number, now: number, audit: AuditEntry): Promise<boolean>;
}
