// Work graph rules (pure): a batch of WorkItem v1 checked against itself and the run's items; every failure named.
import type { WorkItemV1 } from "../../../contracts/work-item.v1";
import type { Issue } from "../../errors";

/** most items one run may hold (all batches together) */
export const MAX_ITEMS_PER_RUN = 500;
/** largest `input_json` of one item (serialized): it is stored with the item and copied into its order */
export const MAX_ITEM_INPUT_BYTES = 64 * 1024;

/** What the graph rules need to know about the run the batch goes into. */
export type ExistingGraph = {
  /** ids of the run's items so far (a new item may depend on them, never reuse one) */
  itemIds: ReadonlySet<string>;
  /** ids of the run's plain orders: an item's order takes its item_id, so these are taken too */
  orderIds?: ReadonlySet<string>;
  /** the run is not known yet: a dependency outside the batch is left for the check against the run */
  unknownRun?: boolean;
};

const NO_GRAPH: ExistingGraph = { itemIds: new Set() };

/**
 * Every reason the batch cannot go into the run, each with its path (`items[3].depends_on[0]`); [] when it can.
 * Only the batch can hold a cycle: items already in the run never depend on new ones.
 */
export function graphIssues(items: readonly WorkItemV1[], existing: ExistingGraph = NO_GRAPH): Issue[] {
  const issues: Issue[] = [];
  const total = existing.itemIds.size + items.length;
  if (total > MAX_ITEMS_PER_RUN)
    issues.push({
      path: "items",
      message: `a run holds at most ${MAX_ITEMS_PER_RUN} items (${existing.itemIds.size} already, ${items.length} more)`,
    });
  const firstAt = new Map<string, number>();
  items.forEach((item, i) => {
    const bytes = JSON.stringify(item.input_json).length;
    if (bytes > MAX_ITEM_INPUT_BYTES)
      issues.push({
        path: `items[${i}].input_json`,
        message: `input_json is ${bytes} bytes; the limit is ${MAX_ITEM_INPUT_BYTES}`,
      });
    const seen = firstAt.get(item.item_id);
    if (seen !== undefined)
      issues.push({ path: `items[${i}].item_id`, message: `duplicate item id ${item.item_id} (also items[${seen}])` });
    else firstAt.set(item.item_id, i);
    if (existing.itemIds.has(item.item_id) || existing.orderIds?.has(item.item_id))
      issues.push({ path: `items[${i}].item_id`, message: `item id ${item.item_id} already exists in the run` });
  });
  items.forEach((item, i) => {
    (item.depends_on ?? []).forEach((dep, k) => {
      const path = `items[${i}].depends_on[${k}]`;
      if (dep === item.item_id) issues.push({ path, message: `item ${dep} depends on itself` });
      else if (!firstAt.has(dep) && !existing.itemIds.has(dep) && !existing.unknownRun)
        issues.push({ path, message: `unknown dependency ${dep}: no such item in the batch or the run` });
    });
  });
  for (const cycle of findCycles(items)) {
    const at = firstAt.get(cycle[0] as string) as number;
    issues.push({ path: `items[${at}].depends_on`, message: `dependency cycle: ${cycle.join(" → ")}` });
  }
  return issues;
}

/**
 * Every elementary cycle found by one depth-first walk of the batch (self-loops are reported as self dependencies,
 * not here), each written from its first node back to it: [a, b, c, a] means a depends on b, b on c, c on a.
 */
export function findCycles(items: readonly WorkItemV1[]): string[][] {
  const deps = new Map<string, string[]>();
  for (const item of items) if (!deps.has(item.item_id)) deps.set(item.item_id, item.depends_on ?? []);
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  for (const start of deps.keys()) {
    if (state.has(start)) continue;
    // iterative DFS: the path and, per node on it, the index of the next dependency to visit
    const path: string[] = [start];
    const next: number[] = [0];
    state.set(start, "open");
    while (path.length > 0) {
      const node = path[path.length - 1] as string;
      const edges = deps.get(node) ?? [];
      const k = next[next.length - 1] as number;
      if (k >= edges.length) {
        state.set(node, "done");
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = k + 1;
      const dep = edges[k] as string;
      if (dep === node || !deps.has(dep)) continue;
      const seen = state.get(dep);
      if (seen === "open") cycles.push([...path.slice(path.indexOf(dep)), dep]);
      else if (seen === undefined) {
        state.set(dep, "open");
        path.push(dep);
        next.push(0);
      }
    }
  }
  return cycles;
}
