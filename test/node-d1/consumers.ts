// Node counterparts of test/learning.ts: the whole app over the D1 stand-in with a fixed clock and captured events,
// batches delivered to the EVENTS consumer (acked and retried by event_id), and requests through that app.
import type { Deps } from "../../src/deps";
import { consumeEvents, type SubscriberTable } from "../../src/features/events/consumer";
import type { WardenEvent } from "../../src/ports/event-bus";
import { type QueuedMessage, runBatch } from "../fakes/queues";
import { type CallOptions, type NodeWardenOptions, nodeWarden } from "./app";

let seq = 0;

/** Delivers bodies as one queue batch to `consume` (the EVENTS consumer); what it acked and retried, by event_id. */
export async function deliverBatch(
  queue: string,
  bodies: unknown[],
  attempts: number,
  consume: (batch: MessageBatch<unknown>) => Promise<void>,
) {
  const messages: QueuedMessage[] = bodies.map((body) => ({ id: `msg${++seq}`, body, attempts }));
  const result = await runBatch(consume, queue, messages);
  const eventOf = (msgId: string) =>
    (messages.find((m) => m.id === msgId)?.body as { event_id?: string } | undefined)?.event_id;
  return {
    acked: result.explicitAcks.map(eventOf),
    retried: result.retryMessages.map((m) => eventOf(m.msgId)),
  };
}

/** what a fixed-clock deps published, each readable field by field */
type Published = (WardenEvent & Record<string, unknown>)[];

/**
 * testDeps' overrides over `base`: a fixed clock (`setNow` moves it), tokens checked at the real time, fresh ids,
 * events captured instead of queued.
 */
function fixedClockOverrides(start: number, base: Deps, overrides: Partial<Deps>) {
  const published: Published = [];
  let n = 0;
  let now = start;
  const deps: Partial<Deps> = {
    clock: { now: () => now },
    verifyToken: (t: string) => base.verifyToken(t, Date.now()),
    newId: (prefix: string) => `${prefix}_${start}_${++n}_${Math.random().toString(36).slice(2, 8)}`,
    events: { publish: async (e) => void published.push(...(e as Published)) },
    ...overrides,
  };
  return {
    deps,
    published,
    setNow: (at: number) => {
      now = at;
    },
  };
}

/** one batch to the EVENTS consumer over `deps` (or a table of the test's own subscribers) */
const deliverTo =
  (deps: Deps) =>
  (bodies: unknown[], attempts = 1, table?: SubscriberTable) =>
    deliverBatch("warden-events", bodies, attempts, (batch) => consumeEvents(batch, deps, table));

/**
 * testDeps(now) in Node: the app's deps on a fixed clock with fresh ids and events captured instead of queued (tokens
 * are checked at the real time; only the domain runs on the fixed clock). `call` goes through the app with these deps;
 * `setNow` moves the fixed clock (workerd's second testDeps(later) over the same database).
 */
export async function nodeTestDeps(start: number, overrides: Partial<Deps> = {}, opts: NodeWardenOptions = {}) {
  let fixed: ReturnType<typeof fixedClockOverrides> | undefined;
  const w = await nodeWarden({
    ...opts,
    deps: (base) => {
      fixed = fixedClockOverrides(start, base, overrides);
      return fixed.deps;
    },
  });
  if (!fixed) throw new Error("nodeTestDeps: nodeWarden did not ask for the deps");
  return { ...w, published: fixed.published, setNow: fixed.setNow, deliver: deliverTo(w.deps) };
}

/**
 * testDeps(now) over a warden already composed (nodeHelpers'): fixed-clock deps over the same env, database and
 * objects as its `call`, `callApp` through the app with them, `deliver` to the EVENTS consumer with them.
 */
export function testDepsOver(
  w: Pick<Awaited<ReturnType<typeof nodeWarden>>, "deps" | "depsWith" | "call">,
  now: number,
  overrides: Partial<Deps> = {},
) {
  const fixed = fixedClockOverrides(now, w.deps, overrides);
  const deps = w.depsWith(fixed.deps);
  return {
    deps,
    published: fixed.published,
    deliver: deliverTo(deps),
    callApp: (method: string, path: string, opts: CallOptions = {}) => w.call(method, path, opts, deps),
  };
}

/** test/learning.ts's `rows` over a Node warden's database: the rows of one SQL read. */
export async function rowsIn<T = Record<string, unknown>>(db: D1Database, sql: string, ...args: unknown[]) {
  return (
    await db
      .prepare(sql)
      .bind(...args)
      .all<T>()
  ).results;
}

/** test/learning.ts's `entryRow` over a Node warden's database: a team's policy-memory entry row for one skill */
export const entryRowIn = (db: D1Database, team: string, skill: string) =>
  rowsIn<Record<string, number | string>>(
    db,
    "SELECT * FROM policy_memory_entry WHERE team_id = ? AND skill_name = ?",
    team,
    skill,
  ).then((r) => r[0] as Record<string, number | string>);
