// db.batch over a list of any length (D1 has no BEGIN: a batch is the one atomic unit).
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";

/** D1 takes at most 100 statements per batch */
const STATEMENTS_PER_BATCH = 100;

/** One atomic batch of the statements (none: nothing runs); the results in order. */
export async function batchAll(db: DrizzleD1Database, statements: BatchItem<"sqlite">[]): Promise<unknown[]> {
  const [first, ...rest] = statements;
  return first ? db.batch([first, ...rest]) : [];
}

/** Statements in batches of 100 (each batch atomic, not the whole); the sum of their changed rows. */
export async function runInBatches(db: DrizzleD1Database, statements: BatchItem<"sqlite">[]): Promise<number> {
  let changes = 0;
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    const results = await batchAll(db, statements.slice(i, i + STATEMENTS_PER_BATCH));
    for (const r of results) changes += (r as D1Result).meta.changes ?? 0;
  }
  return changes;
}
