// D1 tables of the events feature (drizzle): messages that exhausted their retries on EVENTS, and delivery keys of retried ones.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** messages that exhausted their retries on EVENTS and arrived on warden-events-dlq */
export const eventDeadLetters = sqliteTable(
  "event_dead_letter",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id"),
    eventId: text("event_id"),
    type: text("type"),
    /** the message body as JSON, cut at 8 KiB */
    body: text("body").notNull(),
    attempts: integer("attempts").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [index("event_dead_letter_team_received").on(t.teamId, t.receivedAt)],
);

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
