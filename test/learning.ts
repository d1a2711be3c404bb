// Test helpers for the learning feature: deps with a fixed clock, delivering queue batches, event builders.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { type Deps, makeDeps } from "../src/deps";
import { consumeEvents, type SubscriberTable } from "../src/features/events/consumer";
import type { WardenEvent } from "../src/ports/event-bus";

export { DAY, runCompleted, type TaskSpec, taskEvent } from "./learning-events";

/** Deps over the test D1 with a fixed clock and events captured instead of queued (unless given). */
export function testDeps(now: number, overrides: Partial<Deps> = {}) {
  /** what was published, each readable field by field (the tests look at any member's fields) */
  const published: (WardenEvent & Record<string, unknown>)[] = [];
  let n = 0;
  const base = makeDeps(env);
  const deps = makeDeps(env, {
    clock: { now: () => now },
    // tokens are minted at the real time; only the domain runs on the fixed clock
    verifyToken: (t: string) => base.verifyToken(t, Date.now()),
    newId: (prefix: string) => `${prefix}_${now}_${++n}_${Math.random().toString(36).slice(2, 8)}`,
    events: { publish: async (e) => void published.push(...e) },
    ...overrides,
  });
  return { deps, published };
}

let seq = 0;
/** Delivers bodies as one queue batch to the EVENTS consumer; returns what it acked and retried, by body event_id. */
export async function deliver(deps: Deps, bodies: unknown[], attempts = 1, table?: SubscriberTable) {
  const ids = bodies.map(() => `msg${++seq}`);
  const batch = createMessageBatch(
    "warden-events",
    bodies.map((body, i) => ({ id: ids[i] as string, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await consumeEvents(batch, deps, table);
  const result = await getQueueResult(batch, ctx);
  const eventOf = (msgId: string) => (bodies[ids.indexOf(msgId)] as { event_id?: string }).event_id;
  return {
    acked: result.explicitAcks.map(eventOf),
    retried: result.retryMessages.map((m) => eventOf(m.msgId)),
  };
}

/** a team's policy-memory entry row for one skill */
export const entryRow = (team: string, skill: string) =>
  rows<Record<string, number | string>>(
    "SELECT * FROM policy_memory_entry WHERE team_id = ? AND skill_name = ?",
    team,
    skill,
  ).then((r) => r[0]);

export async function rows<T = Record<string, unknown>>(sql: string, ...args: unknown[]): Promise<T[]> {
  return (
    await env.DB.prepare(sql)
      .bind(...args)
      .all<T>()
  ).results;
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}
