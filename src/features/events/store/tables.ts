// D1 table of the events feature (drizzle): messages that exhausted their retries on EVENTS.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
