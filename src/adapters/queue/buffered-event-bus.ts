// EventBus decorator that coalesces publishes from concurrent requests into one queue sendBatch.
import { createCoalescer } from "../../lib/coalesce";
import type { EventBus, WardenEvent } from "../../ports/event-bus";

export type BufferedEventBus = EventBus & {
  /**
   * Adds events to the pending batch. Returns the flush promise only to the caller that opened the batch
   * (it must keep the isolate alive with waitUntil); later callers share that flush and get null, so only
   * one request per batch lingers after its response.
   */
  enqueue(events: WardenEvent[]): Promise<void> | null;
};

/** Events wait at most `maxDelayMs`, or until `maxBatch` are pending, then go out together. */
export function createBufferedEventBus(inner: EventBus, maxBatch = 100, maxDelayMs = 20): BufferedEventBus {
  const batches = createCoalescer<WardenEvent>((batch) => inner.publish(batch), maxBatch, maxDelayMs);
  return {
    enqueue: (events) => batches.add(events),
    async publish(events) {
      batches.add(events);
      await batches.pending();
    },
  };
}
