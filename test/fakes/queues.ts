// An in-process stand-in for Cloudflare Queues (held to test/fakes/queues-contract.ts in workerd and Node): a producer
// per wrangler.toml queue, and deliveries the test drives (`drain`), run through the consumer it is given as batches
// with ack/retry, attempts, max_retries and dead-letter queues as miniflare's broker applies them — no timers.
import { readFileSync } from "node:fs";

/** One consumer's settings, from wrangler.toml's top-level `[[queues.consumers]]`. */
export type QueueSettings = { queue: string; maxBatchSize: number; maxRetries: number; deadLetterQueue: string | null };
export type QueueConfig = { producers: { binding: string; queue: string }[]; consumers: QueueSettings[] };
/** What runs a delivery: the Worker's own queue handler in nodeWarden(). */
export type QueueHandler = (batch: MessageBatch<unknown>) => Promise<void>;

/** miniflare's defaults for a consumer without max_batch_size / max_retries */
const DEFAULT_BATCH_SIZE = 5;
const DEFAULT_RETRIES = 2;
/** a drain that has not emptied the queues after this many batches is a consumer that retries for ever */
const MAX_BATCHES = 1_000;

/** wrangler.toml's local (top-level) producers and consumers. */
export function wranglerQueueConfig(
  toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8"),
): QueueConfig {
  const local = toml.split(/^\[env\./m)[0] ?? "";
  const blocks = (name: string) =>
    local
      .split(/^(?=\[)/m)
      .filter((b) => b.startsWith(`[[queues.${name}]]`))
      .map((b) => Object.fromEntries([...b.matchAll(/^(\w+) = "?([^"\n]*)"?$/gm)].map((m) => [m[1], m[2]])));
  return {
    producers: blocks("producers").map((b) => ({ binding: String(b.binding), queue: String(b.queue) })),
    consumers: blocks("consumers").map((b) => ({
      queue: String(b.queue),
      maxBatchSize: b.max_batch_size ? Number(b.max_batch_size) : DEFAULT_BATCH_SIZE,
      maxRetries: b.max_retries ? Number(b.max_retries) : DEFAULT_RETRIES,
      deadLetterQueue: b.dead_letter_queue ?? null,
    })),
  };
}

/** A message as a consumer is handed it. */
export type QueuedMessage = { id: string; body: unknown; attempts: number; timestamp?: Date };
/** What the consumer decided about a batch, as workerd reports it (getQueueResult's shape). */
export type BatchResult = {
  outcome: "ok" | "exception";
  explicitAcks: string[];
  retryMessages: { msgId: string; delaySeconds?: number }[];
  ackAll: boolean;
  retryBatch: { retry: boolean; delaySeconds?: number };
};

/**
 * A MessageBatch over the given messages and what became of them: per message the first of ack()/retry() counts (as
 * in workerd, a later call has no effect); ackAll/retryAll for the batch. `outcome` is set by `runBatch`.
 */
export function messageBatch(queue: string, messages: QueuedMessage[]) {
  const result: BatchResult = {
    outcome: "ok",
    explicitAcks: [],
    retryMessages: [],
    ackAll: false,
    retryBatch: { retry: false },
  };
  const decided = new Set<string>();
  const decide = (id: string, record: () => void) => {
    if (decided.has(id)) return;
    decided.add(id);
    record();
  };
  const batch = {
    queue,
    messages: messages.map((m) => ({
      id: m.id,
      timestamp: m.timestamp ?? new Date(),
      body: m.body,
      attempts: m.attempts,
      ack: () => decide(m.id, () => result.explicitAcks.push(m.id)),
      retry: (o?: { delaySeconds?: number }) =>
        decide(m.id, () => result.retryMessages.push({ msgId: m.id, delaySeconds: o?.delaySeconds })),
    })),
    ackAll: () => {
      result.ackAll = true;
    },
    retryAll: (o?: { delaySeconds?: number }) => {
      result.retryBatch = { retry: true, ...o };
    },
  };
  return { batch: batch as unknown as MessageBatch<unknown>, result };
}

/** Runs one batch through a consumer; a consumer that throws retries every message of it (miniflare's broker). */
export async function runBatch(handler: QueueHandler, queue: string, messages: QueuedMessage[]): Promise<BatchResult> {
  const { batch, result } = messageBatch(queue, messages);
  try {
    await handler(batch);
  } catch {
    result.outcome = "exception";
  }
  return result;
}

type Stored = { id: string; body: unknown; failedAttempts: number; timestamp: Date };
/** One delivery as the stand-in ran it: the queue, the message ids and attempts handed over, what became of them. */
export type Delivery = { queue: string; messages: { id: string; attempts: number }[]; result: BatchResult };

/**
 * Producers for every queue of `config` and the deliveries a test drives. `drain()` hands each queue's waiting
 * messages to `handler` in batches of max_batch_size until none is left; a retried message comes back with
 * attempts + 1 until it has failed max_retries + 1 times, then moves to its dead-letter queue (as attempts 1, its id
 * kept) or is dropped. Retry delays are recorded, not waited for.
 */
export function createMemoryQueues(config: QueueConfig = wranglerQueueConfig()) {
  let handler: QueueHandler | null = null;
  let seq = 0;
  const waiting = new Map<string, Stored[]>();
  const deliveries: Delivery[] = [];
  const dropped: { queue: string; id: string; body: unknown }[] = [];
  const enqueue = (queue: string, stored: Stored) => {
    const list = waiting.get(queue) ?? [];
    list.push(stored);
    waiting.set(queue, list);
  };
  const producer = (queue: string) => ({
    async send(body: unknown) {
      enqueue(queue, { id: `msg-${++seq}`, body: structuredClone(body), failedAttempts: 0, timestamp: new Date() });
    },
    async sendBatch(messages: Iterable<{ body: unknown }>) {
      for (const m of messages)
        enqueue(queue, { id: `msg-${++seq}`, body: structuredClone(m.body), failedAttempts: 0, timestamp: new Date() });
    },
  });

  /** the next queue with a consumer and a waiting message, in wrangler.toml's order */
  const nextQueue = () => config.consumers.find((c) => (waiting.get(c.queue)?.length ?? 0) > 0);

  async function deliverOne(settings: QueueSettings): Promise<void> {
    if (!handler) throw new Error("createMemoryQueues: no consumer set (consumeWith)");
    const batch = (waiting.get(settings.queue) ?? []).splice(0, settings.maxBatchSize);
    const handed = batch.map((m) => ({
      id: m.id,
      body: m.body,
      attempts: m.failedAttempts + 1,
      timestamp: m.timestamp,
    }));
    const result = await runBatch(handler, settings.queue, handed);
    deliveries.push({ queue: settings.queue, messages: handed.map(({ id, attempts }) => ({ id, attempts })), result });
    const retried = new Set(result.retryMessages.map((r) => r.msgId));
    const retryAll = result.retryBatch.retry || result.outcome !== "ok";
    for (const m of batch) {
      if (!retryAll && !retried.has(m.id)) continue;
      m.failedAttempts++;
      if (m.failedAttempts < settings.maxRetries + 1) enqueue(settings.queue, m);
      else if (settings.deadLetterQueue)
        enqueue(settings.deadLetterQueue, { id: m.id, body: m.body, failedAttempts: 0, timestamp: m.timestamp });
      else dropped.push({ queue: settings.queue, id: m.id, body: m.body });
    }
  }

  return {
    /** the producer bindings by name (EVENTS, SLACK_OUTBOX), as the Worker's env has them */
    bindings: Object.fromEntries(config.producers.map((p) => [p.binding, producer(p.queue)])) as unknown as Record<
      string,
      Queue<unknown>
    >,
    /** a producer for any queue by its name (the contract sends to queues without a binding too) */
    producer: (queue: string) => producer(queue) as unknown as Queue<unknown>,
    /** sets what runs each delivery (the Worker's queue handler) */
    consumeWith(h: QueueHandler) {
      handler = h;
    },
    /** messages waiting on a queue (copies) */
    waiting: (queue: string) => structuredClone((waiting.get(queue) ?? []).map((m) => m.body)),
    /** every batch delivered so far, in order */
    deliveries: () => structuredClone(deliveries),
    /** messages that failed max_retries + 1 times on a queue without a dead-letter queue */
    dropped: () => structuredClone(dropped),
    /** Runs deliveries until no queue with a consumer has a message waiting (what a consumer sends is drained too). */
    async drain(): Promise<Delivery[]> {
      const from = deliveries.length;
      for (let settings = nextQueue(); settings; settings = nextQueue()) {
        if (deliveries.length - from >= MAX_BATCHES) throw new Error(`queues did not drain in ${MAX_BATCHES} batches`);
        await deliverOne(settings);
      }
      return structuredClone(deliveries.slice(from));
    },
  };
}

export type MemoryQueues = ReturnType<typeof createMemoryQueues>;
