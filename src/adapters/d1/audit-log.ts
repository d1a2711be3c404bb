// D1 adapter for the audit_log table (drizzle, typed rows): idempotent appends and a team's newest-first pages.
import { and, desc, eq, lt, or } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { type AuditEntry, type AuditLogStore, decodeAuditCursor, encodeAuditCursor } from "../../ports/audit-log";
import { auditLog } from "./schema";

export function createD1AuditLog(db: DrizzleD1Database): AuditLogStore {
  return {
    async append(entries) {
      if (!entries.length) return;
      await db.insert(auditLog).values(entries).onConflictDoNothing({ target: auditLog.id });
    },

    async list(teamId, q) {
      const after = q.cursor ? decodeAuditCursor(q.cursor) : null;
      const rows = await db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.teamId, teamId),
            q.action ? eq(auditLog.action, q.action) : undefined,
            after
              ? or(lt(auditLog.createdAt, after[0]), and(eq(auditLog.createdAt, after[0]), lt(auditLog.id, after[1])))
              : undefined,
          ),
        )
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(q.limit + 1);
      const entries: AuditEntry[] = rows.slice(0, q.limit).map((r) => ({
        ...r,
        metadata: (r.metadata ?? null) as Record<string, unknown> | null,
      }));
      const last = entries[entries.length - 1];
      return { entries, nextCursor: rows.length > q.limit && last ? encodeAuditCursor(last) : null };
    },
  };
}

/**
 * The one INSERT into audit_log, as a statement other adapters put in their own db.batch (so the audit row commits in
 * the same transaction as the change it records). `onlyIfChanged`: written only when the batch's previous statement
 * changed exactly one row.
 */
export function auditInsert(
  db: D1Database,
  e: AuditEntry,
  opts: { onlyIfChanged?: boolean } = {},
): D1PreparedStatement {
  const columns = "INSERT INTO audit_log (id, team_id, actor, action, subject_type, subject_id, metadata, created_at)";
  const values = opts.onlyIfChanged
    ? "SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() = 1"
    : "VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  return db
    .prepare(`${columns} ${values}`)
    .bind(e.id, e.teamId, e.actor, e.action, e.subjectType, e.subjectId, JSON.stringify(e.metadata), e.createdAt);
}
