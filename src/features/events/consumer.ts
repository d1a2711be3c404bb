// The EVENTS queue consumer: groups a batch by event type, hands each group to its handler, acks or retries per message.

import type { Deps } from "../../deps";
import type { WardenEvent } from "../../ports/event-bus";
import { recordDecisionEvents } from "../policy/decision-log";

/** Applies a group of same-typed events; returns the ids of those that failed (to retry), or throws to retry all. */
export type EventHandler = (events: WardenEvent[], deps: Deps) => Promise<Set<string> | undefined>;

export const EVENT_HANDLERS: Record<string, EventHandler> = {
  "policy.decided": recordDecisionEvents,
};

export async function consumeEvents(batch: MessageBatch<unknown>, deps: Deps): Promise<void> {
  const groups = new Map<string, Message<unknown>[]>();
  for (const message of batch.messages) {
    const body = message.body as Partial<WardenEvent> | null;
    const handler = body && typeof body.type === "string" ? EVENT_HANDLERS[body.type] : undefined;
    if (!handler || typeof body?.event_id !== "string") {
      // Nothing here can apply it; a later consumer version may. Ack so it does not block the queue.
      message.ack();
      continue;
    }
    const group = groups.get(body.type as string) ?? [];
    group.push(message);
    groups.set(body.type as string, group);
  }
  for (const [type, messages] of groups) {
    const handler = EVENT_HANDLERS[type] as EventHandler;
    try {
      const failed = await handler(
        messages.map((m) => m.body as WardenEvent),
        deps,
      );
      for (const m of messages) {
        if (failed?.has((m.body as WardenEvent).event_id)) m.retry();
        else m.ack();
      }
    } catch (e) {
      console.error(`events consumer: ${type} handler failed`, e);
      for (const m of messages) m.retry();
    }
  }
}
