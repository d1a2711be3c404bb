// orderEpisodes: each session's episodes in index order, in the slots that session holds; other sessions stay put.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderEpisodes } from "./episode-order";

type Row = { id: number; session: string; index: number | null };
const key = (r: Row) => ({ session: r.session, index: r.index });

describe("orderEpisodes", () => {
  it("replays tried → failed → fallback resolved in the agent's order, whatever order the posts arrived in", () => {
    const rows: Row[] = [
      { id: 1, session: "a", index: 1 },
      { id: 2, session: "b", index: null },
      { id: 3, session: "a", index: 0 },
    ];
    expect(orderEpisodes(rows, key).map((r) => r.id)).toEqual([3, 2, 1]);
  });

  it("property: a permutation that sorts every session by index and keeps each session's slots", () => {
    const rowArb = fc.record({ session: fc.constantFrom("a", "b", "c"), index: fc.option(fc.nat(4), { nil: null }) });
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 40 }), (xs) => {
        const rows = xs.map((x, id) => ({ id, ...x }));
        const out = orderEpisodes(rows, key);
        expect([...out].map((r) => r.id).sort((p, q) => p - q)).toEqual(rows.map((r) => r.id));
        for (const [i, r] of out.entries()) expect(r.session).toBe(rows[i]?.session);
        for (const s of ["a", "b", "c"]) {
          const mine = out.filter((r) => r.session === s);
          for (let i = 1; i < mine.length; i++) {
            const [prev, cur] = [mine[i - 1] as Row, mine[i] as Row];
            expect(prev.index ?? 0).toBeLessThanOrEqual(cur.index ?? 0);
            if ((prev.index ?? 0) === (cur.index ?? 0)) expect(prev.id).toBeLessThan(cur.id); // ties: arrival order
          }
        }
      }),
    );
  });
});
