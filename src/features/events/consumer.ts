// The EVENTS queue consumer: parses each message with the internal-event schema, groups by handler, acks once applied.

import { InternalEvent, type InternalEventType, type RefusedWriteEvent } from "../../../contracts/internal-events";
import { log, messageCorrelation, sharedCorrelation, withLogContext } from "../../lib/log";
import { applyRunCompletions, applyTaskEvents, type HandlerContext, recordGateEvents } from "../learning";
import { decisionEscalationAudits, recordDecisionEvents } from "../policy";
import { enqueueGateCards, enqueueRunFeed, raiseEventAlerts } from "../slack";
import { recordRefusals } from "./audit";
import { acknowledgedResolveDue } from "./escalation-sla";
import { planEscalations } from "./escalations";
import type { ConsumerNeeds } from "./needs";

/**
 * Applies a group of events; returns the ids that failed (to retry), or throws to retry every message of the group
 * not yet reported through `ctx.applied`.
 */
export type EventHandler = (
  events: InternalEvent[],
  deps: ConsumerNeeds,
  ctx: HandlerContext,
) => Promise<Set<string> | undefined>;

/**
 * The run feed and the operator alerts of these events (SLACK_OUTBOX) are a subscriber of their own, beside the
 * wrapped handler (learning, gate metrics): neither waits on the other, so a failing or slow feed never holds learning
 * back. A message is acked only when both are done; when the feed fails the group is retried, and the handler's
 * writes, idempotent by event_id like the feed's, apply nothing twice on the redelivery.
 */
const withSlack =
  (handler: EventHandler): EventHandler =>
  async (events, deps, ctx) => {
    const applied: string[] = [];
    const [feed, own] = await Promise.allSettled([
      (async () => {
        await enqueueRunFeed(events, deps);
        await raiseEventAlerts(events, deps);
      })(),
      handler(events, deps, { applied: (id) => void applied.push(id) }),
    ]);
    if (feed.status === "rejected") throw feed.reason;
    for (const id of applied) ctx.applied(id);
    if (own.status === "rejected") throw own.reason;
    return own.value;
  };
const taskEvents: EventHandler = withSlack((events, deps, ctx) => applyTaskEvents(events, deps, ctx));
const refusals: EventHandler = async (events, deps) => {
  await recordRefusals(events as RefusedWriteEvent[], deps.auditLog);
  return undefined;
};
/** Gate events: queue the Slack approval card first (so a failure retries the group before anything is acked), then
 * the gate metrics. */
const gateEvents: EventHandler = withSlack(async (events, deps) => {
  await enqueueGateCards(events, deps);
  return recordGateEvents(events, deps);
});
/** The rollback sweep writes its audit row in the same D1 transaction as the ceiling change; the event adds the
 * operator alert only. */
const rollbackAlert: EventHandler = async (events, deps) => {
  await raiseEventAlerts(events, deps);
  return undefined;
};

/** One entry per event type: what the consumer does with it. Every type of the union has one (checked by tsc). */
export const EVENT_HANDLERS: Record<InternalEventType, EventHandler> = {
  // the decision log, and an audit row per escalate decision (seed 003 §14), idempotent by decision_id
  "policy.decided": async (events, deps) => {
    await deps.auditLog.append(decisionEscalationAudits(events));
    return recordDecisionEvents(events, deps);
  },
  "task.failed": taskEvents,
  "task.blocked": taskEvents,
  "task.completed": taskEvents,
  "run.completed": withSlack(applyRunCompletions),
  "gate.opened": gateEvents,
  "gate.decided": gateEvents,
  // an escalation is an audit row and, unless someone acknowledged the gate before its resolve SLA fell due, a Slack
  // ping (the gate metrics count openings and decisions)
  "gate.escalated": async (events, deps) => {
    const byTeam = new Map<string, InternalEvent[]>();
    for (const e of events) byTeam.set(e.team_id, [...(byTeam.get(e.team_id) ?? []), e]);
    for (const [teamId, teamEvents] of byTeam) {
      const gateIds = teamEvents.map((e) => String((e as Record<string, unknown>).gate_id ?? ""));
      const acks = await deps.runIndex.gateAcks(teamId, gateIds);
      const { audit, ping } = planEscalations(teamEvents, acks, await acknowledgedResolveDue(deps, teamId, acks));
      await deps.auditLog.append(audit);
      await enqueueGateCards(ping, deps);
    }
    return undefined;
  },
  // an acknowledgement made through the API or CLI: the gate's Slack card is updated in place (the Acknowledge button
  // updates it itself); the audit row was written with the acknowledgement
  "gate.acknowledged": async (events, deps) => {
    await enqueueGateCards(events, deps);
    return undefined;
  },
  memory_store_failed: refusals,
  "task.memory_store_failed": refusals,
  "policy.rollback": rollbackAlert,
};

const handlerOf = (type: unknown): EventHandler | undefined =>
  typeof type === "string" && Object.hasOwn(EVENT_HANDLERS, type)
    ? EVENT_HANDLERS[type as InternalEventType]
    : undefined;

type Parsed = { message: Message<unknown>; event: InternalEvent };

/** Sorts a batch: unknown types and bodies without an event_id are acked, malformed known events retried. */
function groupByHandler(batch: MessageBatch<unknown>): Map<EventHandler, Parsed[]> {
  const groups = new Map<EventHandler, Parsed[]>();
  for (const message of batch.messages) {
    const body = message.body as { type?: unknown; event_id?: unknown } | null;
    const handler = handlerOf(body?.type);
    if (!handler || typeof body?.event_id !== "string") {
      // Nothing here can apply it; a later consumer version may. Ack so it does not block the queue.
      message.ack();
      continue;
    }
    const parsed = InternalEvent.safeParse(message.body);
    if (!parsed.success) {
      // A known type that does not fit its schema: retry, so after max_retries it lands in the dead-letter queue.
      withLogContext(messageCorrelation(body), () =>
        log.warn("events consumer: malformed event", { event_id: body.event_id, type: body.type }),
      );
      message.retry();
      continue;
    }
    const group = groups.get(handler) ?? [];
    group.push({ message, event: parsed.data });
    groups.set(handler, group);
  }
  return groups;
}

async function applyGroup(handler: EventHandler, items: Parsed[], deps: ConsumerNeeds): Promise<void> {
  const acked = new Set<Message<unknown>>();
  const byId = new Map<string, Message<unknown>[]>();
  for (const { message, event } of items) byId.set(event.event_id, [...(byId.get(event.event_id) ?? []), message]);
  const ack = (m: Message<unknown>) => {
    if (acked.has(m)) return;
    acked.add(m);
    m.ack();
  };
  const ctx: HandlerContext = { applied: (id) => byId.get(id)?.forEach(ack) };
  try {
    const failed = await handler(
      items.map((i) => i.event),
      deps,
      ctx,
    );
    for (const { message, event } of items) {
      if (acked.has(message)) continue;
      if (failed?.has(event.event_id)) message.retry();
      else ack(message);
    }
  } catch (e) {
    log.error("events consumer: handler failed", { error: String(e) });
    for (const { message } of items) if (!acked.has(message)) message.retry();
  }
}

export async function consumeEvents(batch: MessageBatch<unknown>, deps: ConsumerNeeds): Promise<void> {
  // Types that share a handler (task.*) share its group, so they are written in one batch; its lines carry the team
  // and run its events agree on (seed 003 §12)
  for (const [handler, items] of groupByHandler(batch))
    await withLogContext(sharedCorrelation(items.map((i) => i.event)), () => applyGroup(handler, items, deps));
}
