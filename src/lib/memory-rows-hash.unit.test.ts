// The memory rows' hash: the same for the same rows in any order, different when a row or any hashed field differs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type MemoryHashRow, memoryRowsHash } from "./memory-rows-hash";

const row = fc.record({
  id: fc.string({ minLength: 1, maxLength: 12 }),
  contentHash: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
  tier: fc.constantFrom("hot", "warm", "cold", "archived"),
  importance: fc.double({ min: 0, max: 100, noNaN: true }),
});
const rows = fc.uniqueArray(row, { selector: (r) => r.id, maxLength: 20 });

describe("memoryRowsHash", () => {
  it("is the SHA-256 of nothing for no rows", async () => {
    expect(await memoryRowsHash([])).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("does not depend on the rows' order", async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.integer(), async (rs, seed) => {
        const shuffled = [...rs].sort((a, b) => ((a.id.length * seed) % 7) - ((b.id.length * seed) % 7));
        expect(await memoryRowsHash(shuffled)).toBe(await memoryRowsHash(rs));
      }),
    );
  });

  it("changes when a row is missing or any hashed field of one row changes", async () => {
    const changes: ((r: MemoryHashRow) => MemoryHashRow)[] = [
      (r) => ({ ...r, id: `${r.id}x` }),
      (r) => ({ ...r, contentHash: `${r.contentHash ?? ""}x` }),
      (r) => ({ ...r, tier: r.tier === "hot" ? "warm" : "hot" }),
      (r) => ({ ...r, importance: r.importance + 1 }),
    ];
    await fc.assert(
      fc.asyncProperty(
        rows.filter((rs) => rs.length > 0),
        fc.nat(),
        fc.nat(3),
        async (rs, at, which) => {
          const i = at % rs.length;
          const base = await memoryRowsHash(rs);
          const changed = rs.map((r, j) => (j === i ? (changes[which] as (r: MemoryHashRow) => MemoryHashRow)(r) : r));
          const ids = new Set(changed.map((r) => r.id));
          if (ids.size === changed.length) expect(await memoryRowsHash(changed)).not.toBe(base);
          expect(await memoryRowsHash(rs.filter((_, j) => j !== i))).not.toBe(base);
        },
      ),
    );
  });
});
