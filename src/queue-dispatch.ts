// The Worker's queue handler: each batch to the consumer its queue has in FEATURES; a queue without one is logged and acked.
import type { Deps } from "./deps";
import { FEATURES } from "./features";
import type { QueueConsumer } from "./features/feature";
import { log } from "./lib/log";

/** queue name → its consumer, from every feature's `queues` */
const CONSUMERS = new Map<string, QueueConsumer>(
  FEATURES.flatMap((f) => ("queues" in f && f.queues ? Object.entries(f.queues) : [])),
);

/** One batch with the composed services (the Worker's own, or a Node test's over its stand-ins). */
export async function dispatchQueue(batch: MessageBatch<unknown>, deps: Deps): Promise<void> {
  const consume = CONSUMERS.get(batch.queue);
  if (consume) return consume(batch, deps);
  // Other queues: retrying would only delete the message, so it is logged (with its body, to be re-sent by hand)
  // and acknowledged.
  for (const m of batch.messages) {
    log.warn("queue has no consumer; message dropped", { queue: batch.queue, id: m.id, body: m.body });
    m.ack();
  }
}
