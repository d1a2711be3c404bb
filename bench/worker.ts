// Bench-only Worker entry: the production Worker (src/index.ts) plus the /__bench/* hooks of bench/hooks.ts.
// bench/harness.ts starts it with `wrangler dev bench/worker.ts`, so the production bundle carries no bench code.
import { makeDeps } from "../src/deps";
import worker from "../src/index";
import { benchHooks } from "./hooks";

export { RunDO, VectorIndexDO } from "../src/index";

export default {
  ...worker,
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname.startsWith("/__bench/")) return benchHooks(request, makeDeps(env), env.DB);
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
