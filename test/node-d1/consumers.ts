// Node counterparts of test/learning.ts: the whole app over the D1 stand-in with a fixed clock and captured events,
// batches delivered to the EVENTS consumer (acked and retried by event_id), and requests through that app.
import type { Deps } from "../../src/deps";
import { consumeEvents, type SubscriberTable } from "../../src/features/events/consumer";
import type { WardenEvent } from "../../src/ports/event-bus";
import { type QueuedMessage, runBatch } from "../fakes/queues";
import { type NodeWardenOptions, nodeWarden } from "./app";

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

/**
 * testDeps(now) in Node: the app's deps on a fixed clock with fresh ids and events captured instead of queued (tokens
 * are checked at the real time; only the domain runs on the fixed clock). `call` goes through the app with these deps;
 * `setNow` moves the fixed clock (workerd's second testDeps(later) over the same database).
 */
export async function nodeTestDeps(start: number, overrides: Partial<Deps> = {}, opts: NodeWardenOptions = {}) {
  const published: (WardenEvent & Record<string, unknown>)[] = [];
  let n = 0;
  let now = start;
  const w = await nodeWarden({
    ...opts,
    deps: (base) => ({
      clock: { now: () => now },
      verifyToken: (t: string) => base.verifyToken(t, Date.now()),
      newId: (prefix: string) => `${prefix}_${now}_${++n}_${Math.random().toString(36).slice(2, 8)}`,
      events: { publish: async (e) => void published.push(...(e as typeof published)) },
      ...overrides,
    }),
  });
  return {
    ...w,
    published,
    setNow: (at: number) => {
      now = at;
    },
    /** one batch to the EVENTS consumer with these deps (or a table of the test's own subscribers) */
    deliver: (bodies: unknown[], attempts = 1, table?: SubscriberTable) =>
      deliverBatch("warden-events", bodies, attempts, (batch) => consumeEvents(batch, w.deps, table)),
  };
}
