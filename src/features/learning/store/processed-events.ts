// processed_event (D1, drizzle): the ids of queue events already applied, written in the batch of their effect.
import { inArray } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import { processedEvents } from "./tables";

/** D1 binds at most 100 parameters per statement. */
const IN_CHUNK = 90;

/** which of these event ids were applied already (one batch of chunked reads) */
export async function processedAmong(db: DrizzleD1Database, eventIds: string[]): Promise<Set<string>> {
  const ids = [...new Set(eventIds)];
  const reads = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    reads.push(
      db
        .select({ eventId: processedEvents.eventId })
        .from(processedEvents)
        .where(inArray(processedEvents.eventId, ids.slice(i, i + IN_CHUNK))),
    );
  }
  const results = (await batchAll(db, reads)) as Awaited<(typeof reads)[number]>[];
  return new Set(results.flat().map((row) => row.eventId));
}

/** The idempotency key of one event; a second delivery's batch fails on its primary key. */
export function processedEventInsert(db: DrizzleD1Database, eventId: string, type: string, at: number) {
  return db.insert(processedEvents).values({ eventId, type, processedAt: at });
}
