// EventDeadLetterStore over D1: one row per dead-lettered EVENTS message, written in one batch per DLQ batch.
import type { EventDeadLetterStore } from "../../ports/event-dead-letters";

export function createD1EventDeadLetterStore(db: D1Database): EventDeadLetterStore {
  return {
    async record(rows) {
      if (rows.length === 0) return;
      await db.batch(
        rows.map((r) =>
          db
            .prepare(
              `INSERT INTO event_dead_letter (id, team_id, event_id, type, body, attempts, received_at)
               VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
            )
            .bind(r.id, r.teamId, r.eventId, r.type, r.body, r.attempts, r.receivedAt),
        ),
      );
    },
  };
}
