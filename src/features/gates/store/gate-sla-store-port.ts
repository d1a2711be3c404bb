// Port: a team's gate SLA settings, the gate facts SLAs are measured on, and the once-per-gate record of breach alerts.
import type { AuditEntry } from "../../../ports/audit-log";

/** A gate as its SLA sees it (read from the D1 gate index). */
export type SlaGateRow = {
  team_id: string;
  gate_id: string;
  run_id: string;
  policy_key: string;
  kind: string;
  status: string;
  opened_at: number;
  acked_by: string | null;
  acked_at: number | null;
  decided_at: number | null;
};

export type StoredGateSla = { settings: unknown; updated_by: string; updated_at: number };
export type SlaBreach = "ack" | "resolve";

export interface GateSlaStore {
  /** the team's stored settings (parsed by the caller), or null when it keeps the defaults */
  get(teamId: string): Promise<StoredGateSla | null>;
  /** replaces the team's settings; the audit row commits in the same batch */
  put(teamId: string, settings: unknown, audit: AuditEntry): Promise<void>;
  /** the team's gates a person must decide, opened at or after `since` (metrics), oldest first, at most `limit` */
  gatesOpenedSince(teamId: string, since: number, limit: number): Promise<SlaGateRow[]>;
  /** every team's open gates a person must decide, oldest first, at most `limit` (the breach sweep) */
  openGates(limit: number): Promise<SlaGateRow[]>;
  /** which of these breach keys (breachKey) were alerted before */
  alerted(keys: readonly { gate_id: string; breach: SlaBreach }[]): Promise<Set<string>>;
  /** records these breaches as alerted; answers the ones not recorded before (each breach is alerted once) */
  claimAlerts(breaches: { team_id: string; gate_id: string; breach: SlaBreach }[], now: number): Promise<string[]>;
}
