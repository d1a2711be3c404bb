// SharedCommit: calls waiting together are written in one write, each answered with its own outcome, in order.
import { describe, expect, it } from "vitest";
import { SharedCommit } from "./shared-commit";

/** A SharedCommit over a recording write that answers each input doubled. */
function recording() {
  const writes: number[][] = [];
  const commit = new SharedCommit<number, number>(async (inputs) => {
    writes.push(inputs);
    return inputs.map((n) => n * 2);
  });
  return { writes, commit };
}

describe("SharedCommit", () => {
  it("writes the calls made in one turn once, and answers each its own outcome", async () => {
    const { writes, commit } = recording();
    const answers = await Promise.all([1, 2, 3].map((n) => commit.submit(n)));
    expect(answers).toEqual([2, 4, 6]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it("takes calls that arrive before its turn, and starts a new write for calls after it", async () => {
    const { writes, commit } = recording();
    const first = commit.submit(1);
    await Promise.resolve(); // a later microtask turn, before the timer turn
    const second = commit.submit(2);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(await commit.submit(5)).toBe(10);
    expect(writes).toEqual([[1, 2], [5]]);
  });
});
