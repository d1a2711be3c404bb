// Commit turns: one holder per key at a time, other keys never wait, and a holder that never releases is outwaited.
import { describe, expect, it } from "vitest";
import { newTurns, takeTurn } from "./commit-turns";

const tick = () => new Promise((r) => setTimeout(r, 20));

describe("takeTurn", () => {
  it("gives a free key at once and lets the next waiter in only after the holder releases", async () => {
    const turns = newTurns();
    const order: string[] = [];
    const first = await takeTurn(turns, "team-a", 60_000, 1);
    const second = takeTurn(turns, "team-a", 60_000, 1).then((release) => {
      order.push("second");
      return release;
    });
    await tick();
    expect(order).toEqual([]);
    order.push("first released");
    first();
    (await second)();
    expect(order).toEqual(["first released", "second"]);
    expect(turns.holders.size).toBe(0);
  });

  it("never makes one key wait for another", async () => {
    const turns = newTurns();
    await takeTurn(turns, "team-a", 60_000, 1);
    const b = await takeTurn(turns, "team-b", 60_000, 1);
    expect([...turns.holders.keys()].sort()).toEqual(["team-a", "team-b"]);
    b();
    expect([...turns.holders.keys()]).toEqual(["team-a"]);
  });

  it("holds each key by one writer at a time among many concurrent ones", async () => {
    const turns = newTurns();
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        const release = await takeTurn(turns, "team-a", 60_000, 1);
        inside++;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 2));
        inside--;
        release();
      }),
    );
    expect(most).toBe(1);
    expect(turns.holders.size).toBe(0);
  });

  it("takes over from a holder that never releases after waitMs, and the lost holder's late release frees nothing", async () => {
    const turns = newTurns();
    const lost = await takeTurn(turns, "team-a", 60_000, 1);
    const taker = await takeTurn(turns, "team-a", 30, 1);
    lost();
    expect(turns.holders.has("team-a")).toBe(true);
    taker();
    expect(turns.holders.has("team-a")).toBe(false);
  });
});
