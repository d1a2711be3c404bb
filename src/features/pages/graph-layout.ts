// Where the trace page draws a run's work graph (pure): layers by longest path from the roots, left to right.

/** What the layout reads of an item. */
export type LayoutItem = { item_id: string; depends_on: readonly string[] };

export const BOX_W = 168;
export const BOX_H = 30;
export const GAP_X = 48;
export const GAP_Y = 12;
export const MARGIN = 8;

export type Box = { id: string; layer: number; row: number; x: number; y: number; w: number; h: number };
export type Edge = { from: string; to: string; x1: number; y1: number; x2: number; y2: number };
export type GraphLayout = { boxes: Box[]; edges: Edge[]; width: number; height: number };

/**
 * Each item's layer is the length of the longest dependency path leading to it (roots 0), so every edge points to a
 * later layer; within a layer items keep their order in the run. A dependency outside `items` is not drawn; a cycle
 * (the graph rules refuse them) would be cut where it closes.
 */
export function layerOf(items: readonly LayoutItem[]): Map<string, number> {
  const byId = new Map(items.map((i) => [i.item_id, i]));
  const layers = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (id: string): number => {
    const known = layers.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return -1;
    visiting.add(id);
    const deps = (byId.get(id)?.depends_on ?? []).filter((d) => byId.has(d));
    const layer = deps.reduce((m, d) => Math.max(m, visit(d) + 1), 0);
    visiting.delete(id);
    layers.set(id, layer);
    return layer;
  };
  // iterative over items, recursive along dependency chains (a run holds at most 500 items)
  for (const i of items) visit(i.item_id);
  return layers;
}

export function layoutGraph(items: readonly LayoutItem[]): GraphLayout {
  const layers = layerOf(items);
  const rows = new Map<number, number>();
  const boxes: Box[] = items.map((i) => {
    const layer = layers.get(i.item_id) ?? 0;
    const row = rows.get(layer) ?? 0;
    rows.set(layer, row + 1);
    const x = MARGIN + layer * (BOX_W + GAP_X);
    const y = MARGIN + row * (BOX_H + GAP_Y);
    return { id: i.item_id, layer, row, x, y, w: BOX_W, h: BOX_H };
  });
  const at = new Map(boxes.map((b) => [b.id, b]));
  const edges: Edge[] = [];
  for (const i of items)
    for (const d of i.depends_on) {
      const from = at.get(d);
      const to = at.get(i.item_id) as Box;
      if (!from || from.layer >= to.layer) continue;
      edges.push({ from: d, to: to.id, x1: from.x + from.w, y1: from.y + from.h / 2, x2: to.x, y2: to.y + to.h / 2 });
    }
  const layerCount = Math.max(0, ...boxes.map((b) => b.layer + 1));
  const rowCount = Math.max(0, ...rows.values());
  return {
    boxes,
    edges,
    width: MARGIN * 2 + layerCount * BOX_W + Math.max(0, layerCount - 1) * GAP_X,
    height: MARGIN * 2 + rowCount * BOX_H + Math.max(0, rowCount - 1) * GAP_Y,
  };
}
