// D1 table of the audit trail (drizzle): audit_log, appended by every feature's batches through auditInsert.

import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

/** append-only */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    metadata: text("metadata", { mode: "json" }),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_team_created").on(t.teamId, t.createdAt)],
);
