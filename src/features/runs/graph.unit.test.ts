// Work graph rules: unknown and self dependencies, cycles named in full, duplicates, the item cap and the input size.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WorkItemV1 } from "../../../contracts/work-item.v1";
import { workItem } from "../../../test/work-item";
import { findCycles, graphIssues, MAX_ITEM_INPUT_BYTES, MAX_ITEMS_PER_RUN } from "./graph";

const item = workItem;

/** a random DAG: item i depends only on items before it */
const dag = fc
  .integer({ min: 1, max: 50 })
  .chain((n) =>
    fc
      .tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => `n${j}`))))
      .map((deps) => deps.map((d, i) => item(`n${i}`, d))),
  );

describe("graphIssues", () => {
  it("accepts every acyclic graph with known, distinct ids", () => {
    fc.assert(
      fc.property(dag, (items) => {
        expect(graphIssues(items)).toEqual([]);
      }),
    );
  });

  it("names a cycle that is one: each item depends on the next, and it closes on its first", () => {
    fc.assert(
      fc.property(dag, fc.nat(), fc.nat(), (items, a, b) => {
        if (items.length < 2) return;
        const lo = Math.min(a, b) % items.length;
        let hi = Math.max(a, b) % items.length;
        if (hi === lo) hi = (lo + 1) % items.length;
        const [from, to] = lo < hi ? [lo, hi] : [hi, lo];
        // back edge: an earlier item now depends on a later one that (transitively or not) depends on it
        const low = items[from] as WorkItemV1;
        const high = items[to] as WorkItemV1;
        const withBack = items.map((x, i) =>
          i === to ? { ...x, depends_on: [...(x.depends_on ?? []), low.item_id] } : x,
        );
        withBack[from] = { ...low, depends_on: [...(low.depends_on ?? []), high.item_id] };
        const cycles = findCycles(withBack);
        expect(cycles.length).toBeGreaterThan(0);
        const deps = new Map(withBack.map((x) => [x.item_id, new Set(x.depends_on)]));
        for (const c of cycles) {
          expect(c[0]).toBe(c[c.length - 1]);
          for (let i = 0; i + 1 < c.length; i++) expect(deps.get(c[i] as string)?.has(c[i + 1] as string)).toBe(true);
        }
        const issues = graphIssues(withBack);
        expect(issues.some((i) => i.message.startsWith("dependency cycle: "))).toBe(true);
      }),
    );
  });

  it("writes a three-item cycle as a → b → c → a at the first item's depends_on", () => {
    const issues = graphIssues([item("a", ["b"]), item("b", ["c"]), item("c", ["a"])]);
    expect(issues).toEqual([{ path: "items[0].depends_on", message: "dependency cycle: a → b → c → a" }]);
  });

  it("names an unknown and a self dependency by path", () => {
    const issues = graphIssues([item("a", ["ghost"]), item("b", ["a", "b"])]);
    expect(issues).toEqual([
      { path: "items[0].depends_on[0]", message: "unknown dependency ghost: no such item in the batch or the run" },
      { path: "items[1].depends_on[1]", message: "item b depends on itself" },
    ]);
  });

  it("refuses a duplicate id in the batch and one already in the run, and lets new items depend on old ones", () => {
    const issues = graphIssues([item("a"), item("a"), item("old"), item("c", ["done"])], {
      itemIds: new Set(["old", "done"]),
      orderIds: new Set(["ord-1"]),
    });
    expect(issues).toEqual([
      { path: "items[1].item_id", message: "duplicate item id a (also items[0])" },
      { path: "items[2].item_id", message: "item id old already exists in the run" },
    ]);
    expect(graphIssues([item("ord-1")], { itemIds: new Set(), orderIds: new Set(["ord-1"]) })[0]?.path).toBe(
      "items[0].item_id",
    );
  });

  it("refuses more than 500 items in a run, counting the ones it has", () => {
    const batch = Array.from({ length: 10 }, (_, i) => item(`x${i}`));
    const existing = new Set(Array.from({ length: MAX_ITEMS_PER_RUN - 9 }, (_, i) => `old${i}`));
    expect(graphIssues(batch, { itemIds: existing })[0]?.path).toBe("items");
    expect(graphIssues(batch.slice(1), { itemIds: existing })).toEqual([]);
  });

  it("refuses an input over the size limit at its path", () => {
    const big = item("big", [], { input_json: { blob: "x".repeat(MAX_ITEM_INPUT_BYTES) } });
    expect(graphIssues([item("a"), big]).map((i) => i.path)).toEqual(["items[1].input_json"]);
  });

  it("reports every failure of a batch, not only the first", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), (n) => {
        const items = Array.from({ length: n }, (_, i) => item(`u${i}`, [`missing${i}`]));
        expect(graphIssues(items)).toHaveLength(n);
      }),
    );
  });
});
