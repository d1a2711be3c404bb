// Worker entry: fetch (the Hono app), queue (event consumers), scheduled (sweeps); re-exports the Durable Objects.
import { createApp } from "./app";
import { makeDeps } from "./deps";
import { consumeEvents } from "./features/events/consumer";
import { consumeDeadLetters } from "./features/events/dead-letters";
import { consumeSlackDeadLetters, consumeSlackOutbox } from "./features/slack";
import { runScheduled } from "./features/sweeps/scheduled";

export { BoardDO } from "../durable-objects/board-do";
export { RunDO } from "../durable-objects/run-do";
export { VectorIndexDO } from "../durable-objects/vector-index-do";

const app = createApp();

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, { deps: makeDeps(env) }, ctx);
  },

  async queue(batch, env) {
    const deps = makeDeps(env);
    if (batch.queue.startsWith("warden-events")) {
      return batch.queue.endsWith("-dlq") ? consumeDeadLetters(batch, deps) : consumeEvents(batch, deps);
    }
    if (batch.queue === "warden-slack-outbox") return consumeSlackOutbox(batch, deps);
    if (batch.queue === "warden-slack-outbox-dlq") return consumeSlackDeadLetters(batch, deps);
    // Other queues: retrying would only delete the message, so it is logged (with its body, to be re-sent by hand)
    // and acknowledged.
    for (const m of batch.messages) {
      console.warn(
        JSON.stringify({
          level: "warn",
          msg: "queue has no consumer; message dropped",
          queue: batch.queue,
          id: m.id,
          body: m.body,
        }),
      );
      m.ack();
    }
  },

  async scheduled(controller, env) {
    const deps = makeDeps(env);
    await runScheduled(controller.cron, controller.scheduledTime, deps, deps.clock.now(), deps.newId("sweep"));
  },
} satisfies ExportedHandler<Env>;
