// Worker entry: fetch (the Hono app), queue and scheduled (dispatched to the features of FEATURES); re-exports the Durable Objects.

import { createApp } from "./app";
import { makeDeps } from "./deps";
import { FEATURES } from "./features";
import type { CronHandler, QueueConsumer } from "./features/feature";
import { log } from "./lib/log";

export { BoardDO } from "../durable-objects/board-do";
export { RunDO } from "../durable-objects/run-do";
export { VectorIndexDO } from "../durable-objects/vector-index-do";

const app = createApp();

/** queue name → its consumer, from every feature's `queues` */
const CONSUMERS = new Map<string, QueueConsumer>(
  FEATURES.flatMap((f) => ("queues" in f && f.queues ? Object.entries(f.queues) : [])),
);
/** the cron handlers, each with the crons it answers */
const CRONS: { crons: readonly string[]; run: CronHandler }[] = FEATURES.flatMap((f) =>
  "crons" in f ? [f.crons] : [],
);

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, { deps: makeDeps(env) }, ctx);
  },

  async queue(batch, env) {
    const consume = CONSUMERS.get(batch.queue);
    if (consume) return consume(batch, makeDeps(env));
    // Other queues: retrying would only delete the message, so it is logged (with its body, to be re-sent by hand)
    // and acknowledged.
    for (const m of batch.messages) {
      log.warn("queue has no consumer; message dropped", { queue: batch.queue, id: m.id, body: m.body });
      m.ack();
    }
  },

  async scheduled(controller, env) {
    const deps = makeDeps(env);
    const handlers = CRONS.filter((c) => c.crons.includes(controller.cron)).map((c) => c.run);
    if (handlers.length === 0) log.warn("no handler for cron", { cron: controller.cron });
    for (const run of handlers)
      await run(controller.cron, controller.scheduledTime, deps, deps.clock.now(), deps.newId("sweep"));
  },
} satisfies ExportedHandler<Env>;
