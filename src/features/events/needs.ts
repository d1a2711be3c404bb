// What the events feature needs from the composition root: the audit log for refused writes and GET /v1/audit.
import type { AuditLogStore } from "../../ports/audit-log";

export type EventsNeeds = { auditLog: AuditLogStore };
