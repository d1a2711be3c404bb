// Port: what the scheduled sweeps read and write — leases, retention, policy-memory archiving, the rollback matrix.
import type { MemrlMode } from "../../../../contracts/memrl-policy";

export type CeilingChange = {
  teamId: string;
  from: MemrlMode;
  to: MemrlMode;
  reason: string;
  now: number;
  audit: { id: string; actor: string; metadata: Record<string, unknown> };
};

export interface SweepStore {
  /**
   * Takes the lease `name` for the cron slot `slot`: only when no live lease is held and this slot has not run
   * yet (a guarded upsert; true when meta.changes says this caller got it).
   */
  acquireLease(name: string, slot: string, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** ends the lease early; the slot stays recorded so the same slot never runs twice */
  releaseLease(name: string, holder: string, now: number): Promise<void>;
  /** deletes approval events created before `cutoff` (the append-only trigger refuses younger ones) */
  deleteApprovalEventsBefore(cutoff: number): Promise<number>;
  /** flags entries whose last use is before `cutoff` as archived; one audit row per team */
  archivePolicyMemory(
    cutoff: number,
    now: number,
    auditId: () => string,
  ): Promise<{ teamId: string; entryIds: string[] }[]>;
  /** staged task outcomes of runs that never completed */
  pruneStagedTasks(before: number): Promise<number>;
  /**
   * Agent runs that finished between `from` and `to` (by their last update) whose run.completed was never applied
   * (no processed_event) nor dead-lettered, oldest first, at most `limit`.
   */
  unlearnedRuns(from: number, to: number, limit: number): Promise<{ runId: string; teamId: string }[]>;
  /** lowers the team's ceiling to `to` and writes the audit row, atomically; false when it was not higher */
  lowerCeiling(change: CeilingChange): Promise<boolean>;
}
