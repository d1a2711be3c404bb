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
    // Other queues (Slack outbox) get their consumers with their features; until then nothing is dropped silently.
    for (const m of batch.messages) m.retry();
  },

  async scheduled(controller, env) {
    const deps = makeDeps(env);
    await runScheduled(controller.cron, controller.scheduledTime, deps, deps.clock.now(), deps.newId("sweep"));
  },
} satisfies ExportedHandler<Env>;
