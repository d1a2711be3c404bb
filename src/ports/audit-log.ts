// Port: the append-only audit_log table (who did what to which subject), written idempotently and listed per team.

export type AuditEntry = {
  id: string;
  teamId: string;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  metadata: Record<string, unknown> | null;
  createdAt: number;
};

export type AuditPage = { entries: AuditEntry[]; nextCursor: string | null };

export interface AuditLogStore {
  /** Inserts entries; an id already present is left as it is (so a redelivered event writes one row). */
  append(entries: AuditEntry[]): Promise<void>;
  /** Newest first, one team only; `cursor` is the nextCursor of the previous page. */
  list(teamId: string, q: { action?: string; limit: number; cursor?: string }): Promise<AuditPage>;
}
