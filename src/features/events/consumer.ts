// The EVENTS queue consumer: parses each message once with the internal-event union, hands every subscriber of its
// type its share on its own, and acks a message once every subscriber has applied it.

import {
  InternalEvent,
  type InternalEventType,
  isTruncatedRunEvent,
  type QueuedEvent,
} from "../../../contracts/internal-events";
import { log, messageCorrelation, sharedCorrelation, withLogContext } from "../../lib/log";
import type { EventDelivery } from "../../ports/event-bus";
import type { HandlerContext } from "../learning";
import type { ConsumerNeeds } from "./needs";
import { EVENT_SUBSCRIBERS, type Subscriber } from "./subscribers";

export { EVENT_SUBSCRIBERS, type Subscriber } from "./subscribers";

/** Who hears of each type: EVENT_SUBSCRIBERS, or a table of the tests' own. */
export type SubscriberTable = { [T in InternalEventType]: readonly Subscriber<T>[] };
type AnySubscriber = Subscriber<InternalEventType>;
type Parsed = { message: Message<unknown>; event: QueuedEvent };
/** A subscriber's share of the batch, and what it applied of it (by event_id). */
type Share = { subscriber: AnySubscriber; items: Parsed[]; applied: Set<string> };

const isKnownType = (t: unknown, table: SubscriberTable): t is InternalEventType =>
  typeof t === "string" && Object.hasOwn(table, t);

/**
 * Parses each message once. Unknown types and bodies without an event_id are acked (a later consumer version may
 * apply them; they must not block the queue); a known type that does not fit its schema is retried, so after
 * max_retries it lands in the dead-letter queue; a truncated envelope of a strict kind has nothing a subscriber
 * could apply and is acked with a warning.
 */
function parseBatch(batch: MessageBatch<unknown>, table: SubscriberTable): Parsed[] {
  const parsed: Parsed[] = [];
  for (const message of batch.messages) {
    const body = message.body as { type?: unknown; event_id?: unknown } | null;
    if (!isKnownType(body?.type, table) || typeof body?.event_id !== "string") {
      message.ack();
      continue;
    }
    const result = InternalEvent.safeParse(message.body);
    const context = messageCorrelation(body);
    if (!result.success) {
      withLogContext(context, () =>
        log.warn("events consumer: malformed event", { event_id: body.event_id, type: body.type }),
      );
      message.retry();
    } else if (isTruncatedRunEvent(result.data)) {
      withLogContext(context, () => log.warn("events consumer: truncated event skipped", { type: body.type }));
      message.ack();
    } else parsed.push({ message, event: result.data });
  }
  return parsed;
}

/** Each subscriber's share: the events of its types, minus those a delivery key says it applied on an earlier try. */
function sharesOf(parsed: Parsed[], table: SubscriberTable, delivered: Map<string, Set<string>>): Share[] {
  const shares = new Map<AnySubscriber, Share>();
  for (const item of parsed) {
    for (const subscriber of table[item.event.type] as readonly AnySubscriber[]) {
      const share = shares.get(subscriber) ?? { subscriber, items: [], applied: new Set<string>() };
      if (delivered.get(item.event.event_id)?.has(subscriber.name)) share.applied.add(item.event.event_id);
      else share.items.push(item);
      shares.set(subscriber, share);
    }
  }
  return [...shares.values()];
}

/** Runs one subscriber over its share; what it reported through ctx.applied or did not fail counts as applied. */
async function applyShare(share: Share, deps: ConsumerNeeds): Promise<void> {
  if (!share.items.length) return;
  const ctx: HandlerContext = { applied: (id) => void share.applied.add(id) };
  const events = share.items.map((i) => i.event) as Parameters<AnySubscriber["apply"]>[0];
  try {
    const failed = await withLogContext(sharedCorrelation(events), () => share.subscriber.apply(events, deps, ctx));
    for (const e of events) if (!failed?.has(e.event_id)) share.applied.add(e.event_id);
  } catch (e) {
    log.error("events consumer: subscriber failed", { subscriber: share.subscriber.name, error: String(e) });
  }
}

/**
 * Every subscriber runs on its own (one's failure or slowness never holds another's writes). A message all its
 * subscribers applied is acked; otherwise the subscribers that did apply it get a delivery key (event_id +
 * subscriber) and the message is retried, so the redelivery reaches only the others. The keys are read only for
 * redelivered messages and dropped once the message is acked, so the first, successful delivery costs no D1 work.
 */
export async function consumeEvents(
  batch: MessageBatch<unknown>,
  deps: ConsumerNeeds,
  table: SubscriberTable = EVENT_SUBSCRIBERS,
): Promise<void> {
  const parsed = parseBatch(batch, table);
  const redelivered = [...new Set(parsed.filter((p) => p.message.attempts > 1).map((p) => p.event.event_id))];
  const delivered = redelivered.length ? await deps.eventDeliveries.deliveredAmong(redelivered) : new Map();
  const shares = sharesOf(parsed, table, delivered);
  await Promise.all(shares.map((share) => applyShare(share, deps)));
  const marks: EventDelivery[] = [];
  const settled: string[] = [];
  for (const { message, event } of parsed) {
    const mine = shares.filter((s) => s.items.some((i) => i.event === event) || s.applied.has(event.event_id));
    const missing = mine.filter((s) => !s.applied.has(event.event_id));
    if (!missing.length) {
      if (message.attempts > 1) settled.push(event.event_id);
      message.ack();
      continue;
    }
    for (const s of mine)
      if (s.applied.has(event.event_id)) marks.push({ eventId: event.event_id, subscriber: s.subscriber.name });
    message.retry();
  }
  // best effort: without a key the retry re-runs that subscriber, which is idempotent by event_id on its own
  await deps.eventDeliveries
    .record(marks, deps.clock.now())
    .catch((e) => log.error("events consumer: delivery keys not kept", { error: String(e) }));
  if (settled.length)
    await deps.eventDeliveries
      .forget(settled)
      .catch((e) => log.warn("events consumer: delivery keys not dropped", { error: String(e) }));
}
