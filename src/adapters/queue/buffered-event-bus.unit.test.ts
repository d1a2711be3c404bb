// The buffered bus: concurrent publishes coalesce into one send; each resolves with that send, or sees its failure.
import { describe, expect, it } from "vitest";
import type { WardenEvent } from "../../ports/event-bus";
import { createBufferedEventBus } from "./buffered-event-bus";

const ev = (i: number): WardenEvent => ({
  event_id: `e${i}`,
  type: "memory_store_failed",
  team_id: "x",
  occurred_at: i,
  source: "memory.write",
  code: "rejected",
  rule_ids: [],
});

describe("createBufferedEventBus", () => {
  it("sends concurrent publishes as one batch, and each resolves only once that batch was sent", async () => {
    const batches: WardenEvent[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const bus = createBufferedEventBus(
      {
        publish: async (e) => {
          await gate;
          batches.push(e);
        },
      },
      100,
      5,
    );
    const resolved: number[] = [];
    const first = bus.publish([ev(1)]).then(() => resolved.push(1));
    const second = bus.publish([ev(2)]).then(() => resolved.push(2));
    await new Promise((r) => setTimeout(r, 20));
    expect(resolved).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(batches).toEqual([[ev(1), ev(2)]]);
    expect(resolved.sort()).toEqual([1, 2]);
  });

  it("flushes early when the batch is full and starts a new batch after", async () => {
    const batches: WardenEvent[][] = [];
    const bus = createBufferedEventBus({ publish: async (e) => void batches.push(e) }, 2, 10_000);
    await Promise.all([bus.publish([ev(1)]), bus.publish([ev(2)])]);
    await Promise.all([bus.publish([ev(3)]), bus.publish([ev(4)])]);
    expect(batches).toEqual([
      [ev(1), ev(2)],
      [ev(3), ev(4)],
    ]);
  });

  it("rejects every publish whose events rode on a failed send", async () => {
    const bus = createBufferedEventBus({ publish: async () => Promise.reject(new Error("queue down")) }, 100, 1);
    const results = await Promise.allSettled([bus.publish([ev(1)]), bus.publish([ev(2)])]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
