// Port: where MemRL profiles, team mode ceilings, policy-memory retry overrides and the decision log live.
import type { MemrlMode, MemrlPolicyProfile } from "../../../../contracts/memrl-policy";
import type { LoggedDecision } from "../../../ports/decision-log";

export type { LoggedDecision };

export type ProfileStatus = "pending" | "active" | "retired";

export type StoredProfile = {
  teamId: string;
  version: number;
  status: ProfileStatus;
  body: MemrlPolicyProfile;
  createdBy: string;
  createdAt: number;
};

export interface PolicyStore {
  activeProfile(teamId: string): Promise<StoredProfile | null>;
  getProfile(teamId: string, version: number): Promise<StoredProfile | null>;
  /** stores a new pending version (max + 1) and returns it */
  addPendingProfile(teamId: string, body: MemrlPolicyProfile, createdBy: string, now: number): Promise<number>;
  /** makes `version` the active one and retires the previous; false when it is not pending */
  activateProfile(teamId: string, version: number, now: number): Promise<boolean>;
  /** the team's mode ceiling; "enforce" (no restriction) when never lowered */
  modeCeiling(teamId: string): Promise<MemrlMode>;
  /** why the ceiling is what it is (a demotion names its rollback trigger); null when never set */
  modeCeilingReason(teamId: string): Promise<{ ceiling: MemrlMode; reason: string; updated_at: number } | null>;
  setModeCeiling(teamId: string, ceiling: MemrlMode, reason: string, now: number): Promise<void>;
  /** stores an admin's pending ceiling change (version max + 1) and returns its version */
  addCeilingRequest(teamId: string, ceiling: MemrlMode, requestedBy: string, now: number): Promise<number>;
  /** applies a pending ceiling request once its gate is approved; false when it is unknown or already applied */
  applyCeilingRequest(teamId: string, version: number, now: number): Promise<boolean>;
  /** policy-memory max_attempts_override per failure class */
  maxAttemptsOverrides(teamId: string): Promise<Record<string, number>>;
  /**
   * decisions logged in D1's policy_decision before the log moved to R2 (issue 27); nothing writes that table any more,
   * the log's reader (features/policy/decision-log-reader.ts) merges these with the R2 objects
   */
  loggedDecisions(teamId: string, sinceMs: number, limit: number): Promise<LoggedDecision[]>;
}
