// event_delivery (drizzle table, its own file): delivery keys of EVENTS subscribers whose message is being retried.
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One row per (event, subscriber) that applied an event whose message was retried for another subscriber; the
 * redelivery skips it. Dropped once the message is acked.
 */
export const eventDeliveries = sqliteTable(
  "event_delivery",
  {
    eventId: text("event_id").notNull(),
    subscriber: text("subscriber").notNull(),
    deliveredAt: integer("delivered_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.subscriber] })],
);
