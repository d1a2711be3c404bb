// EventDeadLetterStore over D1 (drizzle, typed rows): one row per dead-lettered EVENTS message, one insert per DLQ batch.
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import type { EventDeadLetterStore } from "./event-dead-letters-port";
import { eventDeadLetters } from "./tables";

/** D1 caps bound parameters per statement at 100; 7 columns per row → 14 rows per insert. */
const ROWS_PER_INSERT = 14;

export function createD1EventDeadLetterStore(db: DrizzleD1Database): EventDeadLetterStore {
  return {
    async record(rows) {
      const inserts = [];
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        inserts.push(
          db
            .insert(eventDeadLetters)
            .values(rows.slice(i, i + ROWS_PER_INSERT))
            .onConflictDoNothing({ target: eventDeadLetters.id }),
        );
      }
      await batchAll(db, inserts);
    },
  };
}
