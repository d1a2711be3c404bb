// EventBus over a Cloudflare Queue producer binding (sendBatch, ≤ 100 messages per call).
import type { EventBus, WardenEvent } from "../../ports/event-bus";

const MAX_BATCH = 100;

export function createQueueEventBus(queue: Queue<WardenEvent>): EventBus {
  return {
    async publish(events) {
      for (let i = 0; i < events.length; i += MAX_BATCH) {
        const slice = events.slice(i, i + MAX_BATCH);
        if (slice.length === 1) await queue.send(slice[0] as WardenEvent, { contentType: "json" });
        else await queue.sendBatch(slice.map((body) => ({ body, contentType: "json" as const })));
      }
    },
  };
}
