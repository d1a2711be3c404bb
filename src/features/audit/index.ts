// The audit trail's public entry: its D1 store and `auditInsert`, the one INSERT other features' stores batch with
// the change an entry records (GET /v1/audit is served by the events feature over the AuditLogStore port).
export { auditInsert, createD1AuditLog } from "./store/audit-log";
