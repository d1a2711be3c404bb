// D1 tables of the keys feature (drizzle): team API keys.

import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

/** Team API keys: only the SHA-256 of the secret is stored; `prefix` (public, in the key) finds the row. */
export const apiKeys = sqliteTable(
  "api_key",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    subject: text("subject").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    runId: text("run_id"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    revokedAt: integer("revoked_at"),
    expiresAt: integer("expires_at"),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [uniqueIndex("api_key_prefix").on(t.prefix), index("api_key_team").on(t.teamId, t.createdAt)],
);
