// The warden-events-dlq consumer: records every message that exhausted its retries, raises the queue-dead-letter
// operator alert of its team, then acks it.
import { log, messageCorrelation, withLogContext } from "../../lib/log";
import { raiseAlerts, type SlackFeedNeeds } from "../slack";
import type { EventDeadLetter, EventDeadLetterStore } from "./store/event-dead-letters-port";

export const DEAD_LETTER_BODY_MAX = 8 * 1024;

const str = (v: unknown, max = 256) => (typeof v === "string" && v.length > 0 ? v.slice(0, max) : null);

export function toDeadLetter(message: { id: string; body: unknown; attempts: number }, now: number): EventDeadLetter {
  const body = (message.body ?? null) as Record<string, unknown> | null;
  let json: string;
  try {
    json = JSON.stringify(message.body) ?? "null";
  } catch {
    json = JSON.stringify(String(message.body));
  }
  const eventId = typeof body === "object" && body !== null ? str(body.event_id) : null;
  return {
    // a dead letter redelivered to this consumer is recorded once: by event id when there is one
    id: eventId ? `evt:${eventId}` : `msg:${message.id}`,
    teamId: typeof body === "object" && body !== null ? str(body.team_id, 128) : null,
    eventId,
    type: typeof body === "object" && body !== null ? str(body.type, 64) : null,
    body: json.slice(0, DEAD_LETTER_BODY_MAX),
    attempts: message.attempts,
    receivedAt: now,
  };
}

export async function consumeDeadLetters(
  batch: MessageBatch<unknown>,
  deps: { eventDeadLetters: EventDeadLetterStore; clock: { now(): number } } & Pick<
    SlackFeedNeeds,
    "slackStore" | "slackOutbox" | "slackFeed"
  >,
): Promise<void> {
  const now = deps.clock.now();
  const rows = batch.messages.map((m) => toDeadLetter(m, now));
  try {
    await deps.eventDeadLetters.record(rows);
    // after the record: a failed alert retries the batch, and the record is idempotent by id
    await raiseAlerts(
      rows.flatMap((r) =>
        r.teamId
          ? [
              {
                id: `queue_dead_letter:${r.id}`,
                team_id: r.teamId,
                kind: "queue_dead_letters" as const,
                at: now,
                detail: `${r.type ?? "unknown"} event \`${r.eventId ?? r.id}\` dead-lettered after ${r.attempts} attempts`,
              },
            ]
          : [],
      ),
      deps,
    );
    for (const m of batch.messages) m.ack();
  } catch (e) {
    log.error("dead-letter consumer: record failed", { error: String(e) });
    for (const m of batch.messages) m.retry();
  }
  batch.messages.forEach((m, i) => {
    const r = rows[i] as (typeof rows)[number];
    withLogContext(messageCorrelation(m.body), () =>
      log.error("event dead-lettered", { event_id: r.eventId, type: r.type, team_id: r.teamId }),
    );
  });
}
