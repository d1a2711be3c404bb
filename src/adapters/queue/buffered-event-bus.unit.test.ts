import { describe, expect, it } from "vitest";
import type { WardenEvent } from "../../ports/event-bus";
import { createBufferedEventBus } from "./buffered-event-bus";

const ev = (i: number): WardenEvent => ({ event_id: `e${i}`, type: "t", team_id: "x", occurred_at: i });

describe("createBufferedEventBus", () => {
  it("sends concurrent enqueues as one batch and hands the flush to the first caller only", async () => {
    const batches: WardenEvent[][] = [];
    const bus = createBufferedEventBus({ publish: async (e) => void batches.push(e) }, 100, 5);
    const first = bus.enqueue([ev(1)]);
    const second = bus.enqueue([ev(2)]);
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBeNull();
    await first;
    expect(batches).toEqual([[ev(1), ev(2)]]);
  });

  it("flushes early when the batch is full and starts a new batch after", async () => {
    const batches: WardenEvent[][] = [];
    const bus = createBufferedEventBus({ publish: async (e) => void batches.push(e) }, 2, 10_000);
    const flush = bus.enqueue([ev(1)]);
    bus.enqueue([ev(2)]);
    await flush;
    const next = bus.enqueue([ev(3)]);
    expect(next).toBeInstanceOf(Promise);
    bus.enqueue([ev(4)]);
    await next;
    expect(batches).toEqual([
      [ev(1), ev(2)],
      [ev(3), ev(4)],
    ]);
  });

  it("publish() resolves after its events are sent", async () => {
    const sent: WardenEvent[] = [];
    const bus = createBufferedEventBus({ publish: async (e) => void sent.push(...e) }, 100, 5);
    await bus.publish([ev(7)]);
    expect(sent).toEqual([ev(7)]);
  });

  it("surfaces a failed send to the caller that waits for the flush", async () => {
    const bus = createBufferedEventBus({ publish: async () => Promise.reject(new Error("queue down")) }, 100, 1);
    await expect(bus.enqueue([ev(1)])).rejects.toThrow("queue down");
  });
});
