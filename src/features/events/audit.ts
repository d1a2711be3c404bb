// Audit rows from events: refused memory writes become audit_log entries a team can list (GET /v1/audit).
import type { RefusedWriteEvent } from "../../../contracts/internal-events";
import type { AuditEntry, AuditLogStore, AuditPage } from "../../ports/audit-log";

/** One row per event: the id derives from event_id, so a redelivered event is recorded once. */
export function refusalAuditEntry(e: RefusedWriteEvent): AuditEntry {
  const { event_id, type, team_id, occurred_at, ...rest } = e;
  const subject =
    e.type === "task.memory_store_failed"
      ? { subjectType: "memory_namespace", subjectId: e.namespace }
      : { subjectType: "memory_scope", subjectId: e.scope ?? "(unknown)" };
  return {
    id: `aud_evt:${event_id}`,
    teamId: team_id,
    actor: e.type === "task.memory_store_failed" ? "learning" : e.source,
    action: type,
    ...subject,
    metadata: { event_id, ...rest },
    createdAt: occurred_at,
  };
}

export async function recordRefusals(events: RefusedWriteEvent[], audit: AuditLogStore): Promise<void> {
  await audit.append(events.map(refusalAuditEntry));
}

/** The audit entries of one team (newest first); the team always comes from the caller's token. */
export function listAudit(
  audit: AuditLogStore,
  teamId: string,
  q: { type?: string; limit?: number; cursor?: string },
): Promise<AuditPage> {
  return audit.list(teamId, { action: q.type, limit: q.limit ?? 50, cursor: q.cursor });
}
