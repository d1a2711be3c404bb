// Port of the artifact rows in D1 (what, whose, how big, until when); the bytes are src/ports/artifact-objects.ts.
import type { AuditEntry } from "../../../ports/audit-log";
import type { ArtifactKind } from "../domain";

/** held: personal data found, waiting for the run's pii_detected gate; released: readable */
export type ArtifactStatus = "held" | "released";

export type ArtifactRow = {
  artifactId: string;
  teamId: string;
  runId: string;
  opId: string | null;
  kind: ArtifactKind;
  /** the R2 key ("r2://" + key is shown as the uri) */
  key: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  status: ArtifactStatus;
  gateId: string | null;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
};

export type ArtifactStore = {
  /**
   * Inserts the row unless the team's stored bytes plus this one would pass `quotaBytes` (one statement, so two
   * concurrent uploads cannot both squeeze under the quota). False = over quota, nothing written.
   */
  insertWithinQuota(row: ArtifactRow, quotaBytes: number): Promise<boolean>;
  get(teamId: string, artifactId: string): Promise<ArtifactRow | null>;
  /** the ids among `ids` that are the run's (for completions and memory evidence) */
  ownedBy(teamId: string, runId: string | null, ids: string[]): Promise<string[]>;
  listForRun(teamId: string, runId: string): Promise<ArtifactRow[]>;
  /** the team's stored bytes (for the quota message) */
  usedBytes(teamId: string): Promise<number>;
  release(teamId: string, artifactId: string): Promise<void>;
  /** the pii_detected gate a held artifact waits for */
  setGate(teamId: string, artifactId: string, gateId: string): Promise<void>;
  /**
   * rows whose expires_at ≤ now, or whose created_at + their team's retention of their kind ≤ now (a shorter team
   * setting), at most `limit` (the retention sweep)
   */
  expired(now: number, limit: number): Promise<ArtifactRow[]>;
  /** deletes rows by id; the sweep deletes a row before its object */
  deleteRows(ids: string[]): Promise<void>;
  /** which of these R2 keys still have a row (the orphan pass of the sweep) */
  keysWithRows(keys: string[]): Promise<Set<string>>;
  /** the team's retention settings in days, by kind (kinds absent here keep the deployment default) */
  retentionOf(teamId: string): Promise<Partial<Record<ArtifactKind, number>>>;
  /** Upserts the team's days for the named kinds and appends the audit entry in one atomic write: all or none. */
  putRetention(teamId: string, days: Partial<Record<ArtifactKind, number>>, audit: AuditEntry): Promise<void>;
};
