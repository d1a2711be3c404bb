// Worker entry: fetch (the Hono app), queue and scheduled (dispatched to the features of FEATURES); re-exports the Durable Objects.

import { createApp } from "./app";
import { makeDeps } from "./deps";
import { FEATURES } from "./features";
import type { CronHandler } from "./features/feature";
import { log } from "./lib/log";
import { dispatchQueue } from "./queue-dispatch";

export { BoardDO } from "../durable-objects/board-do";
export { RunDO } from "../durable-objects/run-do";
export { VectorIndexDO } from "../durable-objects/vector-index-do";

const app = createApp();

/** the cron handlers, each with the crons it answers */
const CRONS: { crons: readonly string[]; run: CronHandler }[] = FEATURES.flatMap((f) =>
  "crons" in f ? [f.crons] : [],
);

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, { deps: makeDeps(env) }, ctx);
  },

  queue(batch, env) {
    return dispatchQueue(batch, makeDeps(env));
  },

  async scheduled(controller, env) {
    const deps = makeDeps(env);
    const handlers = CRONS.filter((c) => c.crons.includes(controller.cron)).map((c) => c.run);
    if (handlers.length === 0) log.warn("no handler for cron", { cron: controller.cron });
    for (const run of handlers)
      await run(controller.cron, controller.scheduledTime, deps, deps.clock.now(), deps.newId("sweep"));
  },
} satisfies ExportedHandler<Env>;
