// The run tests' steps for either runtime (workerd in test/run-helpers.ts, the Node stand-in in test/node-d1/app.ts):
// runs and orders over HTTP through a `call`, and a run object's clock, alarm, outbox and log through the runtime's hooks.
import type { RunDO } from "../durable-objects/run-do";
import type { RunState } from "../src/features/runs";
import { DELIBERATE_CRASH } from "./deliberate-crash";

export type CallOptions = { token?: string; body?: unknown; headers?: Record<string, string> };
type Call = (
  method: string,
  path: string,
  opts?: CallOptions,
) => Promise<{ status: number; headers: Headers; text: string; json: any }>;

/** How far ahead of the wall clock test runs live: their alarms then fire only when a test fires them. */
export const TEST_CLOCK_AHEAD_MS = 86_400_000;

export const orderBody = (orderId: string, extra: Record<string, unknown> = {}) => ({
  order_id: orderId,
  task_id: `task-${orderId}`,
  goal: `work on ${orderId}`,
  input_json: { n: 1 },
  output_schema_id: "out.v1",
  timeout_sec: 30,
  ...extra,
});

/** startRun, addOrder, lease, complete and leasedOrder over `call`; `setClock` pins a run object's clock. */
export function runCalls(call: Call, setClock: (runId: string, at: number) => Promise<number>) {
  /** Starts a run over HTTP and pins its object's clock a day ahead (see TEST_CLOCK_AHEAD_MS). */
  async function startRun(tok: string, body: Record<string, unknown> = { goal: "extract and verify" }) {
    const res = await call("POST", "/v1/runs", { token: tok, body });
    if (res.status !== 201) throw new Error(`POST /v1/runs → ${res.status} ${res.text}`);
    await setClock(res.json.run_id, Date.now() + TEST_CLOCK_AHEAD_MS);
    return res.json as { run_id: string; status: string; hints: unknown[]; policy_snapshot: any };
  }
  async function addOrder(tok: string, runId: string, orderId: string, extra: Record<string, unknown> = {}) {
    const res = await call("POST", `/v1/runs/${runId}/orders`, { token: tok, body: orderBody(orderId, extra) });
    if (res.status !== 201) throw new Error(`POST orders → ${res.status} ${res.text}`);
    return res.json;
  }
  const lease = (tok: string, runId: string, orderId: string, workerId = "w1") =>
    call("POST", `/v1/runs/${runId}/orders/${orderId}/lease`, { token: tok, body: { worker_id: workerId } });
  const complete = (tok: string, runId: string, orderId: string, body: Record<string, unknown>) =>
    call("POST", `/v1/runs/${runId}/orders/${orderId}/complete`, { token: tok, body });
  /** A run with one order, leased: the lease response and ids. */
  async function leasedOrder(
    tok: string,
    orderId = "o1",
    extra: Record<string, unknown> = {},
    runBody?: Record<string, unknown>,
  ) {
    const run = await startRun(tok, runBody);
    await addOrder(tok, run.run_id, orderId, extra);
    const res = await lease(tok, run.run_id, orderId);
    if (res.status !== 200) throw new Error(`lease → ${res.status} ${res.text}`);
    return { runId: run.run_id, orderId, lease: res.json as { lease_id: string; epoch: number; expires_at: number } };
  }
  return { startRun, addOrder, lease, complete, leasedOrder };
}

/** What a runtime gives the run helpers: run stubs, workerd's test hooks (cloudflare:test or the stand-in's), its D1. */
export type RunObjectHooks = {
  stubFor(runId: string): object;
  runIn<R>(stub: object, fn: (instance: RunDO, state: DurableObjectState) => R | Promise<R>): Promise<R>;
  runAlarm(stub: object): Promise<boolean>;
  evict(stub: object): Promise<void>;
  /** a stub of every run object there is */
  allRuns(): Promise<object[]>;
  db: D1Database;
};

/** A run object's clock, alarm, outbox, state and log, and D1 read once every outbox has flushed. */
export function runObjectHelpers(h: RunObjectHooks) {
  const at = (runId: string) => h.stubFor(runId);
  /** Pins the object's clock to `at` (ms); returns the value. */
  async function setClock(runId: string, now: number): Promise<number> {
    await h.runIn(at(runId), (instance) => {
      instance.engine.clock = { now: () => now };
    });
    return now;
  }
  /** Waits until the run's outbox flushes (D1 rows and events go out after the response). */
  const drain = (runId: string): Promise<void> => h.runIn(at(runId), (instance) => instance.engine.idle());
  /** Waits for every run object's outbox, so D1 reflects every response given so far. */
  async function drainAll(): Promise<void> {
    for (const stub of await h.allRuns()) await h.runIn(stub, (instance) => instance.engine.idle());
  }
  return {
    setClock,
    drain,
    drainAll,
    fireAlarm: (runId: string) => h.runAlarm(at(runId)),
    /** Evicts the run's object as the runtime does an idle one: the next call rebuilds it from storage. */
    evictRun: (runId: string) => h.evict(at(runId)),
    /** Crashes the run's object as a fault does, after holding its input gate for `holdMs` (requests sent meanwhile
     * queue behind it and fail): a throw inside blockConcurrencyWhile drops the instance, the next call rebuilds it. */
    async crashRun(runId: string, holdMs = 0): Promise<void> {
      await h
        .runIn(at(runId), (_i, state) =>
          // the throw breaks the gate either way; handled here, it is not reported again as an unhandled rejection
          state
            .blockConcurrencyWhile(async () => {
              if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
              throw new Error(DELIBERATE_CRASH);
            })
            .catch(() => undefined),
        )
        .catch(() => undefined);
    },
    /** The alarm as armed once the outbox has flushed (while it is unsent, a 5 s safety alarm may be armed). */
    async scheduledAlarm(runId: string): Promise<number | null> {
      await drain(runId);
      return h.runIn(at(runId), (_i, state) => state.storage.getAlarm());
    },
    runState: (runId: string): Promise<RunState> =>
      h.runIn(at(runId), (instance) => structuredClone(instance.engine.snapshotState() as RunState)),
    /** Every event the run has logged, in order. */
    eventLog: (runId: string): Promise<any[]> =>
      h.runIn(at(runId), async (_i, state) => [...(await state.storage.list({ prefix: "ev:" })).values()]),
    async outboxSize(runId: string): Promise<number> {
      await drain(runId);
      return h.runIn(at(runId), async (_i, state) => (await state.storage.list({ prefix: "out:" })).size);
    },
    /** D1 rows, read after every run's outbox has flushed. */
    async rows<T = Record<string, unknown>>(sql: string, ...binds: unknown[]): Promise<T[]> {
      await drainAll();
      return (
        await h.db
          .prepare(sql)
          .bind(...binds)
          .all<T>()
      ).results;
    },
  };
}
