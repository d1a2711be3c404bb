// D1 table of the sweeps feature (drizzle): which invocation holds a sweep until when.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const sweepLeases = sqliteTable("sweep_lease", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
