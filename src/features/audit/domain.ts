// The audit trail's pure part: the page cursor of GET /v1/audit (the last entry's created_at and id).
import type { AuditEntry } from "../../ports/audit-log";

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
