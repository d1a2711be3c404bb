// The write counters (write-counter.ts) over workerd's local D1 and run objects.
import { env, runInDurableObject } from "cloudflare:test";
import type { RunDO } from "../../durable-objects/run-do";
import { stubFor } from "../run-helpers";
import { writeCounter } from "./write-counter";

export const { writes, settledWrites } = writeCounter({
  db: env.DB,
  runIn: (runId, fn) => runInDurableObject(stubFor(runId), (instance: RunDO, state) => fn(instance, state)),
});
