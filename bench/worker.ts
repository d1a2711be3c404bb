// Bench-only Worker entry: the production Worker (src/index.ts) plus the /__bench/* hooks of bench/hooks.ts.
// bench/harness.ts starts it with `wrangler dev bench/worker.ts`, so the production bundle carries no bench code.
import { makeDeps } from "../src/deps";
import worker from "../src/index";
import { benchHooks } from "./hooks";

/** The bare route every HTTP row is divided by (bench/harness.ts BARE_PATH mirrors it). */
const BARE_PATH = "/__bench/bare";

export { BoardDO, RunDO, VectorIndexDO } from "../src/index";

export default {
  ...worker,
  fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    // The HTTP ceiling: the same worker and server, no middleware, no auth, no body read, no bindings touched.
    if (path === BARE_PATH) return new Response('{"ok":true}', { headers: { "content-type": "application/json" } });
    if (path.startsWith("/__bench/")) return benchHooks(request, makeDeps(env), env.DB);
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
