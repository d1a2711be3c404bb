// EventBus decorator that coalesces publishes from concurrent requests into one queue sendBatch.
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
  let pending: WardenEvent[] = [];
  let flushing: Promise<void> | null = null;
  let release: (() => void) | null = null;

  const flush = async () => {
    const batch = pending;
    pending = [];
    flushing = null;
    release = null;
    await inner.publish(batch);
  };

  const enqueue = (events: WardenEvent[]) => {
    pending.push(...events);
    let opened: Promise<void> | null = null;
    if (!flushing) {
      const timer = new Promise<void>((resolve) => {
        release = resolve;
        setTimeout(resolve, maxDelayMs);
      });
      flushing = opened = timer.then(flush);
    }
    if (pending.length >= maxBatch) release?.();
    return opened;
  };

  return {
    enqueue,
    async publish(events) {
      enqueue(events);
      await flushing;
    },
  };
}
