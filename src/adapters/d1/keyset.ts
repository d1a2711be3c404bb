// Keyset pages over (created_at, id), newest first: the condition for the rows after a page's last row.
import { and, eq, lt, or } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** The rows after (at, lastId) in `ORDER BY created_at DESC, id DESC`: older, or as old with a smaller id. */
export const olderThan = (createdAt: SQLiteColumn, id: SQLiteColumn, at: number, lastId: string) =>
  or(lt(createdAt, at), and(eq(createdAt, at), lt(id, lastId)));
