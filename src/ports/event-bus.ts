// Port: typed events to the EVENTS queue (at-least-once; every consumer is idempotent by event_id).
import type { InternalEvent, QueuedRunEvent } from "../../contracts/internal-events";

/**
 * What producers hand to the queue: a member of contracts/internal-events.ts (discriminated on `type`), or one of a
 * run's queued events (its type is one of the union's; the consumer parses every message with InternalEvent).
 */
export type WardenEvent = InternalEvent | QueuedRunEvent;

export interface EventBus {
  publish(events: WardenEvent[]): Promise<void>;
}
