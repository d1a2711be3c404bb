// Port: typed events to the EVENTS queue (at-least-once; every consumer is idempotent by event_id).
import type { InternalEvent, RunOutboxEvent } from "../../contracts/internal-events";

/**
 * What producers hand to the queue: a member of contracts/internal-events.ts (discriminated on `type`), or a run's
 * outbox event, typed by its envelope until the run feature emits RunEventType literals. The consumer parses every
 * message with InternalEvent, so a run event outside the union is logged and skipped, never applied untyped.
 */
export type WardenEvent = InternalEvent | RunOutboxEvent;

export interface EventBus {
  publish(events: WardenEvent[]): Promise<void>;
}
