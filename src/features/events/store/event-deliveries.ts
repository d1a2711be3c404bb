// EventDeliveries over D1 (drizzle): the delivery keys (event_id + subscriber) of EVENTS messages being retried.
import { inArray } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import type { EventDeliveries } from "../../../ports/event-bus";
import { eventDeliveries } from "./tables";

/** D1 binds at most 100 parameters per statement: 90 ids per read or delete, 30 rows (3 columns) per insert. */
const IN_CHUNK = 90;
const ROWS_PER_INSERT = 30;

const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export function createD1EventDeliveries(db: DrizzleD1Database): EventDeliveries {
  return {
    async deliveredAmong(eventIds) {
      const reads = chunks([...new Set(eventIds)], IN_CHUNK).map((ids) =>
        db
          .select({ eventId: eventDeliveries.eventId, subscriber: eventDeliveries.subscriber })
          .from(eventDeliveries)
          .where(inArray(eventDeliveries.eventId, ids)),
      );
      const rows = (await batchAll(db, reads)) as Awaited<(typeof reads)[number]>[];
      const delivered = new Map<string, Set<string>>();
      for (const r of rows.flat()) delivered.set(r.eventId, (delivered.get(r.eventId) ?? new Set()).add(r.subscriber));
      return delivered;
    },
    async record(marks, now) {
      if (!marks.length) return;
      const rows = marks.map((m) => ({ eventId: m.eventId, subscriber: m.subscriber, deliveredAt: now }));
      await batchAll(
        db,
        chunks(rows, ROWS_PER_INSERT).map((part) => db.insert(eventDeliveries).values(part).onConflictDoNothing()),
      );
    },
    async forget(eventIds) {
      const ids = [...new Set(eventIds)];
      if (!ids.length) return;
      await batchAll(
        db,
        chunks(ids, IN_CHUNK).map((part) => db.delete(eventDeliveries).where(inArray(eventDeliveries.eventId, part))),
      );
    },
  };
}
