// EventBus decorator that coalesces publishes from concurrent requests into one queue sendBatch.
import { createCoalescer } from "../../lib/coalesce";
import type { EventBus } from "../../ports/event-bus";

/**
 * Events wait at most `maxDelayMs`, or until `maxBatch` are pending, then go out together. Every caller's `publish`
 * resolves when the send that carried its events resolved, and rejects when that send failed: what resolved is on the
 * queue.
 */
export function createBufferedEventBus(inner: EventBus, maxBatch = 100, maxDelayMs = 20): EventBus {
  const batches = createCoalescer<Parameters<EventBus["publish"]>[0][number]>(
    (batch) => inner.publish(batch),
    maxBatch,
    maxDelayMs,
  );
  return {
    async publish(events) {
      batches.add(events);
      await batches.pending();
    },
  };
}
