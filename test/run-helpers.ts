// Test helpers for runs: start runs and orders over HTTP, reach a run's Durable Object, move its clock, fire its alarm.
import {
  env,
  evictDurableObject,
  listDurableObjectIds,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import type { RunDO } from "../durable-objects/run-do";
import type { RunState } from "../src/features/runs";
import { DELIBERATE_CRASH } from "./deliberate-crash";
import { call, token } from "./helpers";

export const stubFor = (runId: string) => env.RUN.get(env.RUN.idFromName(runId));

/** How far ahead of the wall clock test runs live: their alarms then fire only through runDurableObjectAlarm. */
export const TEST_CLOCK_AHEAD_MS = 86_400_000;

/** Starts a run over HTTP and pins its object's clock a day ahead (see TEST_CLOCK_AHEAD_MS). */
export async function startRun(tok: string, body: Record<string, unknown> = { goal: "extract and verify" }) {
  const res = await call("POST", "/v1/runs", { token: tok, body });
  if (res.status !== 201) throw new Error(`POST /v1/runs → ${res.status} ${res.text}`);
  await setClock(res.json.run_id, Date.now() + TEST_CLOCK_AHEAD_MS);
  return res.json as { run_id: string; status: string; hints: unknown[]; policy_snapshot: any };
}

export const orderBody = (orderId: string, extra: Record<string, unknown> = {}) => ({
  order_id: orderId,
  task_id: `task-${orderId}`,
  goal: `work on ${orderId}`,
  input_json: { n: 1 },
  output_schema_id: "out.v1",
  timeout_sec: 30,
  ...extra,
});

export async function addOrder(tok: string, runId: string, orderId: string, extra: Record<string, unknown> = {}) {
  const res = await call("POST", `/v1/runs/${runId}/orders`, { token: tok, body: orderBody(orderId, extra) });
  if (res.status !== 201) throw new Error(`POST orders → ${res.status} ${res.text}`);
  return res.json;
}

export async function lease(tok: string, runId: string, orderId: string, workerId = "w1") {
  return call("POST", `/v1/runs/${runId}/orders/${orderId}/lease`, { token: tok, body: { worker_id: workerId } });
}

export async function complete(tok: string, runId: string, orderId: string, body: Record<string, unknown>) {
  return call("POST", `/v1/runs/${runId}/orders/${orderId}/complete`, { token: tok, body });
}

/** A run with one order, leased: the lease response and ids. */
export async function leasedOrder(
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

/** Pins the object's clock to `at` (ms); returns the value. */
export async function setClock(runId: string, at: number): Promise<number> {
  await runInDurableObject(stubFor(runId), (instance: RunDO) => {
    instance.engine.clock = { now: () => at };
  });
  return at;
}

export const fireAlarm = (runId: string) => runDurableObjectAlarm(stubFor(runId));

/** Evicts the run's object as the runtime does an idle one: the instance is dropped, the next call rebuilds it from
 * storage. Graceful (requests in flight finish first), so workerd logs nothing. */
export const evictRun = (runId: string) => evictDurableObject(stubFor(runId));

/** Crashes the run's object as a fault does, after holding its input gate for `holdMs` (requests sent meanwhile queue
 * behind it and fail): a throw inside blockConcurrencyWhile drops the instance, the next call rebuilds it from storage. */
export async function crashRun(runId: string, holdMs = 0): Promise<void> {
  await runInDurableObject(stubFor(runId), (_i: RunDO, state) => {
    // the throw breaks the gate either way; handled here, it is not reported a second time as an unhandled rejection
    return state
      .blockConcurrencyWhile(async () => {
        if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
        throw new Error(DELIBERATE_CRASH);
      })
      .catch(() => undefined);
  }).catch(() => undefined);
}

/** Waits until the run's outbox flushes (D1 rows and events go out after the response). */
export async function drain(runId: string): Promise<void> {
  await runInDurableObject(stubFor(runId), (instance: RunDO) => instance.engine.idle());
}

/** Waits for every run object's outbox, so D1 reflects every response given so far. */
export async function drainAll(): Promise<void> {
  for (const id of await listDurableObjectIds(env.RUN)) {
    await runInDurableObject(env.RUN.get(id), (instance: RunDO) => instance.engine.idle());
  }
}

/** The alarm as armed once the outbox has flushed (while it is unsent, a 5 s safety alarm may be armed). */
export async function scheduledAlarm(runId: string): Promise<number | null> {
  await drain(runId);
  return runInDurableObject(stubFor(runId), (_i: RunDO, state) => state.storage.getAlarm());
}

export async function runState(runId: string): Promise<RunState> {
  return runInDurableObject(stubFor(runId), (instance: RunDO) =>
    structuredClone(instance.engine.snapshotState() as RunState),
  );
}

/** Every event the run has logged, in order. */
export async function eventLog(runId: string): Promise<any[]> {
  return runInDurableObject(stubFor(runId), async (_i: RunDO, state) => [
    ...(await state.storage.list({ prefix: "ev:" })).values(),
  ]);
}

export async function outboxSize(runId: string): Promise<number> {
  await drain(runId);
  return runInDurableObject(
    stubFor(runId),
    async (_i: RunDO, state) => (await state.storage.list({ prefix: "out:" })).size,
  );
}

/** D1 rows, read after every run's outbox has flushed. */
export async function rows<T = Record<string, unknown>>(sql: string, ...binds: unknown[]): Promise<T[]> {
  await drainAll();
  return (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;
}

/** Tokens for a team: a worker/requester, and an approver with a different subject. */
export async function teamTokens(teamId: string) {
  return {
    worker: await token(teamId, undefined, { sub: `worker-${teamId}` }),
    approver: await token(teamId, undefined, { sub: `approver-${teamId}` }),
    admin: await token(teamId, undefined, { sub: `admin-${teamId}` }),
  };
}
