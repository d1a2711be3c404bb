// Test helpers for runs in workerd: test/run-calls.ts's steps over SELF and cloudflare:test's Durable Object hooks.
import {
  env,
  evictDurableObject,
  listDurableObjectIds,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { call, token } from "./helpers";
import { runCalls, runObjectHelpers } from "./run-calls";

export const stubFor = (runId: string) => env.RUN.get(env.RUN.idFromName(runId));

export { orderBody, TEST_CLOCK_AHEAD_MS } from "./run-calls";
export const {
  setClock,
  drain,
  drainAll,
  fireAlarm,
  evictRun,
  crashRun,
  scheduledAlarm,
  runState,
  eventLog,
  outboxSize,
  rows,
} = runObjectHelpers({
  stubFor,
  runIn: (stub, fn) => runInDurableObject(stub as never, fn),
  runAlarm: (stub) => runDurableObjectAlarm(stub as never),
  evict: (stub) => evictDurableObject(stub as never),
  allRuns: async () => (await listDurableObjectIds(env.RUN)).map((id) => env.RUN.get(id)),
  db: env.DB,
});
export const { startRun, addOrder, lease, complete, leasedOrder } = runCalls(call, setClock);

/** Tokens for a team: a worker/requester, and an approver with a different subject. */
export async function teamTokens(teamId: string) {
  return {
    worker: await token(teamId, undefined, { sub: `worker-${teamId}` }),
    approver: await token(teamId, undefined, { sub: `approver-${teamId}` }),
    admin: await token(teamId, undefined, { sub: `admin-${teamId}` }),
  };
}
