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

/** A page cursor is the last entry's created_at and id, so pages stay stable under concurrent appends. */
export const encodeAuditCursor = (e: Pick<AuditEntry, "createdAt" | "id">) => btoa(JSON.stringify([e.createdAt, e.id]));
export function decodeAuditCursor(cursor: string): [number, string] | null {
  try {
    const v = JSON.parse(atob(cursor));
    return Array.isArray(v) && typeof v[0] === "number" && typeof v[1] === "string" ? [v[0], v[1]] : null;
  } catch {
    return null;
  }
}
