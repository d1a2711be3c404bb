// The journal's flush chooser and retry delay: a claimed batch is written again exactly, else the oldest rows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chooseFlush,
  JOURNAL_RETRY_MAX_MS,
  type JournalEntry,
  journalRetryDelay,
  sharesOfAdded,
} from "./journal-batch";

/** rows with distinct ascending seqs; `claimed` of them (the oldest) carry batch = their first seq */
const journal = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 60 }), fc.nat(60))
  .map(([seqs, claimed]) => {
    const sorted = [...seqs].sort((a, b) => a - b);
    const batch = sorted[0] ?? null;
    return sorted.map((seq, i): JournalEntry => ({ seq, decisionId: `dec_${seq}`, batch: i < claimed ? batch : null }));
  });

describe("chooseFlush", () => {
  it("chooses nothing in an empty journal", () => {
    expect(chooseFlush([], 10)).toBeNull();
  });

  it("writes a claimed batch again with exactly its rows, whatever newer rows arrived and in any order", () => {
    fc.assert(
      fc.property(journal, fc.integer({ min: 1, max: 50 }), fc.boolean(), (rows, limit, reversed) => {
        const claimed = rows.filter((r) => r.batch !== null);
        fc.pre(claimed.length > 0);
        const choice = chooseFlush(reversed ? [...rows].reverse() : rows, limit);
        expect(choice).toEqual({ batch: claimed[0]?.seq, seqs: claimed.map((r) => r.seq), fresh: false });
      }),
    );
  });

  it("claims the oldest rows up to the limit, numbered by the first, when nothing is claimed", () => {
    fc.assert(
      fc.property(journal, fc.integer({ min: 1, max: 50 }), (all, limit) => {
        const rows = all.map((r) => ({ ...r, batch: null }));
        fc.pre(rows.length > 0);
        const choice = chooseFlush([...rows].reverse(), limit);
        const oldest = rows.slice(0, limit).map((r) => r.seq);
        expect(choice).toEqual({ batch: oldest[0], seqs: oldest, fresh: true });
      }),
    );
  });

  it("claims the same batch when asked again with the claim recorded (a retry after a kill is the same write)", () => {
    fc.assert(
      fc.property(journal, fc.integer({ min: 1, max: 50 }), (all, limit) => {
        const rows = all.map((r) => ({ ...r, batch: null as number | null }));
        const first = chooseFlush(rows, limit);
        fc.pre(first !== null);
        if (!first) return;
        const marked = rows.map((r) => (first.seqs.includes(r.seq) ? { ...r, batch: first.batch } : r));
        const again = chooseFlush([...marked, { seq: 20_000, decisionId: "dec_new", batch: null }], limit);
        expect(again).toEqual({ ...first, fresh: false });
      }),
    );
  });
});

describe("journalRetryDelay", () => {
  it("doubles from 1 s and never exceeds the cap", () => {
    expect([1, 2, 3, 4].map(journalRetryDelay)).toEqual([1000, 2000, 4000, 8000]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), (n) => {
        const d = journalRetryDelay(n);
        return d >= 1000 && d <= JOURNAL_RETRY_MAX_MS && d <= journalRetryDelay(n + 1);
      }),
    );
  });
});

describe("sharesOfAdded", () => {
  const ids = fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f"), { maxLength: 6 });
  it("counts each inserted id once, for the first append that carries it, as if the appends ran one by one", () => {
    fc.assert(
      fc.property(
        fc.array(ids, { maxLength: 6 }),
        fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "e", "f")),
        (appends, logged) => {
          // what the one statement inserts: every id carried, not logged before
          const inserted = new Set(appends.flat().filter((id) => !logged.includes(id)));
          // the truth: the appends one after another, each adding what is neither logged nor journaled yet
          const journaled = new Set(logged);
          const oneByOne = appends.map((a) => {
            let added = 0;
            for (const id of a)
              if (!journaled.has(id)) {
                journaled.add(id);
                added++;
              }
            return added;
          });
          expect(sharesOfAdded(appends, inserted)).toEqual(oneByOne);
        },
      ),
    );
  });
});
