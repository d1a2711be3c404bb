// D1 rows read back in Node tests through the owner feature's drizzle tables, once every run's outbox has flushed (the run
// record, alert occurrences, processed events): storage-level checks without raw SQL (raw SQL only in adapter tests).
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

export { approvalEvents, attempts, deadLetters, runs, workOrders } from "../../src/features/runs/store/tables";

type Row = Record<string, any>;

/**
 * `recordRows(table, where, columns?)`: the table's rows matching `where`, after `drainAll()`; with `columns` (output
 * name → column, as drizzle's select takes them) only those, under those names; in the order they were inserted.
 */
export function tableRows(w: { db: D1Database; drainAll: () => Promise<void> }) {
  const d = drizzle(w.db);
  return async function recordRows(
    table: SQLiteTable,
    where: SQL | undefined,
    columns?: Record<string, SQLiteColumn>,
  ): Promise<Row[]> {
    await w.drainAll();
    const select = columns ? d.select(columns) : d.select();
    // rowid: the order the outbox inserted them, as the workerd tests' `ORDER BY rowid` read them
    return (await select
      .from(table as never)
      .where(where)
      .orderBy(sql`rowid`)) as Row[];
  };
}

/** every column of `table` under its SQL name (`recordRows`' columns for a `SELECT *` read, as raw SQL names them) */
export function bySqlName(table: SQLiteTable): Record<string, SQLiteColumn> {
  return Object.fromEntries(Object.values(getTableColumns(table)).map((c) => [c.name, c as SQLiteColumn]));
}
