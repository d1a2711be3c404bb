// D1 adapter for the audit_log table (drizzle, typed rows): idempotent appends and a team's newest-first pages.
import { and, desc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { olderThan } from "../../../adapters/d1/keyset";
import type { AuditEntry, AuditLogStore } from "../../../ports/audit-log";
import { decodeAuditCursor, encodeAuditCursor } from "../domain";
import { auditLog } from "./tables";

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
            after ? olderThan(auditLog.createdAt, auditLog.id, ...after) : undefined,
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
 * The one INSERT into audit_log, as a drizzle statement other adapters put in their own db.batch (so the audit row
 * commits in the same transaction as the change it records). Idempotent by id. `onlyIfChanged`: written only when the
 * batch's previous statement changed exactly one row — `INSERT … SELECT … WHERE changes() = 1`, which drizzle's
 * builder cannot say, hence the `sql` select (columns in the table's order).
 */
export function auditInsert(
  db: DrizzleD1Database,
  e: AuditEntry,
  opts: { onlyIfChanged?: boolean } = {},
): BatchItem<"sqlite"> {
  if (!opts.onlyIfChanged) return db.insert(auditLog).values(e).onConflictDoNothing({ target: auditLog.id });
  const metadata = JSON.stringify(e.metadata);
  return db
    .insert(auditLog)
    .select(
      sql`select ${e.id}, ${e.teamId}, ${e.actor}, ${e.action}, ${e.subjectType}, ${e.subjectId}, ${metadata}, ${e.createdAt} where changes() = 1`,
    )
    .onConflictDoNothing({ target: auditLog.id });
}
