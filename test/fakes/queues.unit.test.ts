// The queue stand-in's own mechanics, beyond what the contract can watch in workerd: wrangler.toml's settings, the
// attempts of each delivery, batch sizes, ack/retry per message and for the batch, a throwing consumer, dropping.
import { describe, expect, it } from "vitest";
import { createMemoryQueues, type QueueConfig, runBatch, wranglerQueueConfig } from "./queues";

const CONFIG: QueueConfig = {
  producers: [{ binding: "JOBS", queue: "jobs" }],
  consumers: [
    { queue: "jobs", maxBatchSize: 2, maxRetries: 2, deadLetterQueue: "jobs-dlq" },
    { queue: "jobs-dlq", maxBatchSize: 10, maxRetries: 0, deadLetterQueue: null },
  ],
};

describe("queue stand-in", () => {
  it("reads wrangler.toml's local producers and consumers", () => {
    const config = wranglerQueueConfig();
    expect(config.producers).toEqual([
      { binding: "EVENTS", queue: "warden-events" },
      { binding: "SLACK_OUTBOX", queue: "warden-slack-outbox" },
    ]);
    expect(config.consumers).toEqual([
      { queue: "warden-events", maxBatchSize: 100, maxRetries: 3, deadLetterQueue: "warden-events-dlq" },
      { queue: "warden-events-dlq", maxBatchSize: 100, maxRetries: 2, deadLetterQueue: null },
      { queue: "warden-slack-outbox", maxBatchSize: 10, maxRetries: 10, deadLetterQueue: "warden-slack-outbox-dlq" },
      { queue: "warden-slack-outbox-dlq", maxBatchSize: 10, maxRetries: 2, deadLetterQueue: null },
    ]);
  });

  it("delivers in batches of max_batch_size, copies of what was sent, and acks what the consumer left alone", async () => {
    const q = createMemoryQueues(CONFIG);
    const seen: unknown[][] = [];
    q.consumeWith(async (batch) => void seen.push(batch.messages.map((m) => m.body)));
    const sent = { n: 1 };
    await q.bindings.JOBS?.send(sent);
    sent.n = 99;
    await q.bindings.JOBS?.sendBatch([{ body: { n: 2 } }, { body: { n: 3 } }]);
    expect(q.waiting("jobs")).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await q.drain();
    expect(seen).toEqual([[{ n: 1 }, { n: 2 }], [{ n: 3 }]]);
    expect(q.waiting("jobs")).toEqual([]);
  });

  it("counts attempts, moves a message to its dead-letter queue after max_retries + 1, drops it where there is none", async () => {
    const q = createMemoryQueues(CONFIG);
    q.consumeWith(async (batch) => {
      for (const m of batch.messages) m.retry({ delaySeconds: 30 });
    });
    await q.bindings.JOBS?.send({ n: 1 });
    const deliveries = await q.drain();
    expect(deliveries.map((d) => [d.queue, d.messages[0]?.attempts])).toEqual([
      ["jobs", 1],
      ["jobs", 2],
      ["jobs", 3],
      ["jobs-dlq", 1],
    ]);
    expect(deliveries[0]?.result.retryMessages[0]?.delaySeconds).toBe(30);
    expect(deliveries[0]?.messages[0]?.id).toBe(deliveries[3]?.messages[0]?.id);
    expect(q.dropped()).toEqual([{ queue: "jobs-dlq", id: deliveries[0]?.messages[0]?.id, body: { n: 1 } }]);
  });

  it("retries only the messages retried; the first of ack() and retry() counts", async () => {
    const q = createMemoryQueues(CONFIG);
    q.consumeWith(async (batch) => {
      const [a, b] = batch.messages;
      a?.ack();
      a?.retry();
      if (b && b.attempts === 1) b.retry();
      b?.ack();
    });
    await q.bindings.JOBS?.sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }]);
    const deliveries = await q.drain();
    expect(deliveries.map((d) => d.messages.map((m) => m.attempts))).toEqual([[1, 1], [2]]);
    expect(deliveries[0]?.result.explicitAcks).toHaveLength(1);
  });

  it("retries the whole batch on retryAll and when the consumer throws, acked messages included", async () => {
    const thrown = await runBatch(
      async (batch) => {
        batch.messages[0]?.ack();
        throw new Error("consumer down");
      },
      "jobs",
      [{ id: "a", body: 1, attempts: 1 }],
    );
    expect(thrown.outcome).toBe("exception");
    const q = createMemoryQueues(CONFIG);
    let calls = 0;
    q.consumeWith(async (batch) => {
      calls++;
      batch.messages[0]?.ack();
      if (calls === 1) batch.retryAll({ delaySeconds: 5 });
      if (calls === 2) throw new Error("consumer down");
    });
    await q.bindings.JOBS?.send({ n: 1 });
    const deliveries = await q.drain();
    expect(deliveries.map((d) => d.messages[0]?.attempts)).toEqual([1, 2, 3]);
    expect(deliveries[0]?.result.retryBatch).toEqual({ retry: true, delaySeconds: 5 });
  });

  it("refuses to drain for ever when a consumer retries a message on a queue that never gives up", async () => {
    const q = createMemoryQueues({
      producers: [{ binding: "LOOP", queue: "loop" }],
      consumers: [{ queue: "loop", maxBatchSize: 1, maxRetries: 0, deadLetterQueue: "loop" }],
    });
    q.consumeWith(async (batch) => batch.retryAll());
    await q.bindings.LOOP?.send(1);
    await expect(q.drain()).rejects.toThrow(/did not drain/);
  });
});
