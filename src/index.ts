// Worker entry: fetch (the Hono app), queue (event consumers), scheduled (sweeps); re-exports the Durable Objects.
import { createApp } from "./app";
import { makeDeps } from "./deps";
import { consumeEvents } from "./features/events/consumer";
import { consumeDeadLetters } from "./features/events/dead-letters";
import { runScheduled } from "./features/sweeps/scheduled";

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
    // No consumer yet for other queues (SLACK_OUTBOX: nothing sends to it until the Slack feature exists). Retrying
    // would only exhaust max_retries and delete the message, so it is acknowledged and logged as dropped instead.
    for (const m of batch.messages) {
      console.warn(
        JSON.stringify({ level: "warn", msg: "queue has no consumer; message dropped", queue: batch.queue, id: m.id }),
      );
      m.ack();
    }
  },

  async scheduled(controller, env) {
    const deps = makeDeps(env);
    await runScheduled(controller.cron, controller.scheduledTime, deps, deps.clock.now(), deps.newId("sweep"));
  },
} satisfies ExportedHandler<Env>;
