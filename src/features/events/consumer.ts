// The EVENTS queue consumer: groups a batch by handler, acks each message once its effect is committed, retries the rest.

import type { Deps } from "../../deps";
import type { WardenEvent } from "../../ports/event-bus";
import { applyRunCompletions, applyTaskEvents, type HandlerContext, recordGateEvents } from "../learning/consume";
import { recordDecisionEvents } from "../policy/decision-log";

/**
 * Applies a group of events; returns the ids that failed (to retry), or throws to retry every message of the group
 * not yet reported through `ctx.applied`.
 */
export type EventHandler = (events: WardenEvent[], deps: Deps, ctx: HandlerContext) => Promise<Set<string> | undefined>;

const taskEvents: EventHandler = (events, deps, ctx) => applyTaskEvents(events, deps, ctx);

export const EVENT_HANDLERS: Record<string, EventHandler> = {
  "policy.decided": recordDecisionEvents,
  "task.failed": taskEvents,
  "task.blocked": taskEvents,
  "task.completed": taskEvents,
  "run.completed": applyRunCompletions,
  "gate.opened": recordGateEvents,
  "gate.decided": recordGateEvents,
};

export async function consumeEvents(batch: MessageBatch<unknown>, deps: Deps): Promise<void> {
  // Types that share a handler (task.*) share its group, so they are written in one batch.
  const groups = new Map<EventHandler, Message<unknown>[]>();
  for (const message of batch.messages) {
    const body = message.body as Partial<WardenEvent> | null;
    const handler = body && typeof body.type === "string" ? EVENT_HANDLERS[body.type] : undefined;
    if (!handler || typeof body?.event_id !== "string") {
      // Nothing here can apply it; a later consumer version may. Ack so it does not block the queue.
      message.ack();
      continue;
    }
    const group = groups.get(handler) ?? [];
    group.push(message);
    groups.set(handler, group);
  }
  for (const [handler, messages] of groups) {
    const acked = new Set<Message<unknown>>();
    const byId = new Map<string, Message<unknown>[]>();
    for (const m of messages) {
      const id = (m.body as WardenEvent).event_id;
      byId.set(id, [...(byId.get(id) ?? []), m]);
    }
    const ack = (m: Message<unknown>) => {
      if (acked.has(m)) return;
      acked.add(m);
      m.ack();
    };
    const ctx: HandlerContext = { applied: (id) => byId.get(id)?.forEach(ack) };
    try {
      const failed = await handler(
        messages.map((m) => m.body as WardenEvent),
        deps,
        ctx,
      );
      for (const m of messages) {
        if (acked.has(m)) continue;
        if (failed?.has((m.body as WardenEvent).event_id)) m.retry();
        else ack(m);
      }
    } catch (e) {
      console.error(JSON.stringify({ level: "error", msg: "events consumer: handler failed", error: String(e) }));
      for (const m of messages) if (!acked.has(m)) m.retry();
    }
  }
}
