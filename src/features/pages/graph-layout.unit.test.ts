// The graph layout: layers by longest path, every edge left to right, no two boxes overlapping, all inside the canvas.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Box, layerOf, layoutGraph } from "./graph-layout";

/** Random DAGs of up to 50 items: each item depends only on earlier ones (so no cycle), ids shuffled in order. */
const dags = fc
  .integer({ min: 0, max: 50 })
  .chain((n) =>
    fc.tuple(
      fc.constant(n),
      fc.array(fc.uniqueArray(fc.nat(Math.max(0, n - 1)), { maxLength: 4 }), { minLength: n, maxLength: n }),
    ),
  )
  .map(([n, picks]) =>
    Array.from({ length: n }, (_, i) => ({
      item_id: `i${i}`,
      depends_on: (picks[i] ?? []).filter((d) => d < i).map((d) => `i${d}`),
    })),
  );

const overlap = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe("layoutGraph", () => {
  it("draws every edge from left to right and never overlaps two boxes, all within its width and height", () => {
    fc.assert(
      fc.property(dags, (items) => {
        const g = layoutGraph(items);
        expect(g.boxes.map((b) => b.id)).toEqual(items.map((i) => i.item_id));
        expect(g.edges).toHaveLength(items.reduce((n, i) => n + i.depends_on.length, 0));
        for (const e of g.edges) expect(e.x1).toBeLessThan(e.x2);
        for (let a = 0; a < g.boxes.length; a++)
          for (let b = a + 1; b < g.boxes.length; b++)
            expect(overlap(g.boxes[a] as Box, g.boxes[b] as Box)).toBe(false);
        for (const b of g.boxes) {
          expect(b.x + b.w).toBeLessThanOrEqual(g.width);
          expect(b.y + b.h).toBeLessThanOrEqual(g.height);
        }
      }),
    );
  });

  it("puts an item one layer after its deepest dependency (longest path), roots at 0", () => {
    fc.assert(
      fc.property(dags, (items) => {
        const layers = layerOf(items);
        for (const i of items) {
          const deepest = Math.max(-1, ...i.depends_on.map((d) => layers.get(d) as number));
          expect(layers.get(i.item_id)).toBe(deepest + 1);
        }
      }),
    );
    const g = layoutGraph([
      { item_id: "a", depends_on: [] },
      { item_id: "b", depends_on: ["a"] },
      { item_id: "c", depends_on: ["a", "b"] },
    ]);
    expect(g.boxes.map((b) => [b.id, b.layer, b.row])).toEqual([
      ["a", 0, 0],
      ["b", 1, 0],
      ["c", 2, 0],
    ]);
  });

  it("leaves out edges to items it was not given, and is empty without items", () => {
    expect(layoutGraph([{ item_id: "x", depends_on: ["gone"] }]).edges).toEqual([]);
    expect(layoutGraph([])).toMatchObject({ boxes: [], edges: [], width: 16, height: 16 });
  });
});
