// The security fuzz in Node: 1,000 bodies on every JSON route (fuzz.ts) through the whole app's `app.request()` over
// the stand-ins (D1, run objects, queues; test/node-d1/), each held to workerd by its contract suite; split by route
// over fuzz-{1,2}.app.unit.test.ts, which run side by side. Workerd runs the first bodies of the same fuzz over its
// real bindings (fuzz.test.ts).
import { runInDurableObject } from "../fakes/durable-objects";
import { helpersOver, nodeWarden } from "../node-d1/app";
import { describeFuzz, FUZZ_PER_ROUTE } from "./fuzz";
import { quietAppLogs } from "./quiet-logs";
import { backgroundWork, readRaw } from "./routes";
import { describeSummary } from "./table";
import { writeCounter } from "./write-counter";

/** Registers shard `shard` of `shards` of the fuzz over a fresh app in Node, and the file's summary table. */
export async function describeNodeFuzz(shard: number, shards: number): Promise<void> {
  const w = await nodeWarden();
  const h = helpersOver(w);
  const background = backgroundWork();
  quietAppLogs();

  describeFuzz(
    {
      doc: (await w.call("GET", "/openapi.json")).json,
      call: w.call,
      token: h.token,
      startRun: h.startRun,
      addOrder: h.addOrder,
      db: w.db,
      async send(method, path, init) {
        const { response, background: work } = await w.fetchRaw(
          new Request(`https://warden.test${path}`, { method, ...init }),
        );
        background.add(work);
        return readRaw(response);
      },
      settled: background.settled,
      ...writeCounter({ db: w.db, runIn: (runId, fn) => runInDurableObject(h.stubFor(runId), fn) }),
    },
    {
      title: `fuzz over the Node stand-ins (shard ${shard + 1} of ${shards})`,
      perRoute: FUZZ_PER_ROUTE,
      shard,
      shards,
    },
  );
  describeSummary(`security fuzz in Node, shard ${shard + 1} of ${shards}`);
}
