// Port: typed events to the EVENTS queue (at-least-once; every consumer is idempotent by event_id).
import type { InternalEventInput, QueuedRunEvent } from "../../contracts/internal-events";

/**
 * What producers hand to the queue: a member of contracts/internal-events.ts (discriminated on `type`; the strict
 * kinds admit no field their schema does not name), or one of a run's queued events (typed where the run emits it,
 * `Tx.emit`; the consumer parses every message with InternalEvent).
 */
export type WardenEvent = InternalEventInput | QueuedRunEvent;

export interface EventBus {
  publish(events: WardenEvent[]): Promise<void>;
}

/** One subscriber applied one event (the EVENTS consumer's delivery key: event_id + subscriber name). */
export type EventDelivery = { eventId: string; subscriber: string };

/** The delivery keys of messages being retried: a redelivery skips the subscribers that applied it already. */
export interface EventDeliveries {
  /** event_id → the subscribers that applied it on an earlier delivery */
  deliveredAmong(eventIds: string[]): Promise<Map<string, Set<string>>>;
  record(deliveries: EventDelivery[], now: number): Promise<void>;
  /** drops the keys of events whose message was acked at last */
  forget(eventIds: string[]): Promise<void>;
}
