// Work graph steps of the reducer (pure): add items, release an item as an order once its deps passed (their outputs
// in `input_json.deps`), skip what sits behind a dead letter, cancel what waits when the run stops.
import type { WorkItemV1 } from "../../../contracts/work-item.v1";
import type { Issue } from "../../errors";
import { graphIssues } from "./graph";
import { ITEM_BLOCKS, itemState } from "./item-state";
import type { CommandOf, Failure, Item, ItemState, Order } from "./model";
import type { RunOpReply } from "./operations";
import { createOrder } from "./orders";
import { conflict, rejected, type StepTable, type Tx } from "./tx";

/** a dependency's output is copied into `input_json.deps` up to this size (serialized) … */
export const MAX_DEP_INLINE_BYTES = 16 * 1024;
/** … and all of an item's copied outputs together up to this; past either bound the output is referenced */
export const MAX_DEPS_BYTES = 64 * 1024;

/**
 * The batch's own rules, before anything reads or scans it (the memory guard on a 64 KiB input is the slow part):
 * the route refuses a bad batch here; the reducer checks it again against the run's items.
 */
export function batchFailure(items: readonly WorkItemV1[], runKnown: boolean): Failure | null {
  const issues = graphIssues(items, { itemIds: new Set(), unknownRun: !runKnown });
  return issues.length > 0 ? invalid(issues) : null;
}

const invalid = (issues: Issue[]): Failure => ({
  ok: false,
  error: { code: "validation_failed", message: issues.map((i) => `${i.path}: ${i.message}`).join("; "), issues },
});

/** The state of one item of the transaction's run (undefined: no such item). */
export function stateOf(tx: Tx, itemId: string): ItemState | undefined {
  const item = tx.item(itemId);
  return item ? itemState(item, tx.order(itemId)) : undefined;
}

/** item id and state of each item of a batch, for the replies */
export function summaries(tx: Tx, items: readonly WorkItemV1[]): { item_id: string; state: ItemState }[] {
  return items.map((i) => ({ item_id: i.item_id, state: stateOf(tx, i.item_id) as ItemState }));
}

/** Adds a checked batch to the run (nothing when any rule fails); the release pass (in reconcile) does the rest. */
export function putItems(tx: Tx, items: readonly WorkItemV1[], addedBy: string): Failure | null {
  const itemIds = new Set(tx.allItems().map((i) => i.item_id));
  const orderIds = new Set(tx.allOrders().map((o) => o.order_id));
  const issues = graphIssues(items, { itemIds, orderIds });
  if (issues.length > 0) return invalid(issues);
  let index = itemIds.size;
  for (const body of items) {
    const item: Item = {
      item_id: body.item_id,
      body,
      index: index++,
      stored: "waiting",
      created_at: tx.now,
      updated_at: tx.now,
      released_at: null,
      skipped_by: null,
    };
    tx.putItem(item);
    tx.emit("item.added", { item_id: item.item_id, depends_on: body.depends_on ?? [], added_by: addedBy });
  }
  return null;
}

export function addItems(tx: Tx, cmd: CommandOf<"add_items">): Failure | RunOpReply<"add_items"> {
  if (tx.run.kind === "control") return rejected("the control run takes no work items");
  if (tx.run.status === "STOPPED") return conflict("run is stopped");
  const failed = putItems(tx, cmd.items, cmd.actor.subject);
  if (failed) return failed;
  // released now (not only in reconcile) so the reply shows which items are ready
  releaseItems(tx);
  return { run_id: tx.run.run_id, items: summaries(tx, cmd.items) };
}

/**
 * Until nothing changes: a waiting item whose dependencies all passed becomes its order; one behind a dead letter, a
 * skip or a cancel is skipped. Items are visited by creation index, so a chain settles in one pass as a rule.
 */
export function releaseItems(tx: Tx): void {
  let changed = true;
  while (changed) {
    changed = false;
    for (const item of tx.allItems().sort((a, b) => a.index - b.index)) {
      if (item.stored !== "waiting") continue;
      const deps = item.body.depends_on ?? [];
      const states = deps.map((d) => stateOf(tx, d));
      const blocker = deps.find((_, i) => ITEM_BLOCKS.has(states[i] as ItemState));
      if (blocker !== undefined) {
        tx.putItem({ ...item, stored: "skipped", skipped_by: blocker });
        tx.emit("item.skipped", { item_id: item.item_id, because: blocker, state: stateOf(tx, blocker) });
        changed = true;
      } else if (states.every((s) => s === "passed")) {
        release(tx, item);
        changed = true;
      }
    }
  }
}

function release(tx: Tx, item: Item): void {
  const { body } = item;
  const deps = body.depends_on ?? [];
  const input_json = deps.length ? { ...body.input_json, deps: depOutputs(tx, deps) } : body.input_json;
  createOrder(
    tx,
    {
      order_id: item.item_id,
      task_id: item.item_id,
      goal: body.goal,
      input_json,
      output_schema_id: body.output_schema_id,
      timeout_sec: body.timeout_sec,
      ...(body.cost_budget_tokens === undefined ? {} : { cost_budget_tokens: body.cost_budget_tokens }),
      ...(body.skill === undefined ? {} : { skill: body.skill }),
    },
    body.skill ?? null,
    "graph",
  );
  tx.putItem({ ...item, stored: "released", released_at: tx.now });
  tx.emit("item.released", { item_id: item.item_id, depends_on: deps });
}

/** Each dependency's output by item id: copied while within the bounds, else a reference to read it by. */
function depOutputs(tx: Tx, deps: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let budget = MAX_DEPS_BYTES;
  for (const dep of deps) {
    const output = (tx.order(dep) as Order).output ?? null;
    const bytes = JSON.stringify(output).length;
    if (bytes <= MAX_DEP_INLINE_BYTES && bytes <= budget) {
      out[dep] = output;
      budget -= bytes;
    } else {
      out[dep] = { ref: { run_id: tx.run.run_id, item_id: dep, bytes } };
    }
  }
  return out;
}

/**
 * A dead letter of item `itemId` was reissued (its order QUEUED again, so the item is ready and the board sees it
 * through the transaction's rows): every item skipped behind it — directly, or behind one skipped by it — waits
 * again, and the release pass takes it from there (one still behind another dead letter is skipped again).
 */
export function reopenSkipped(tx: Tx, itemId: string): void {
  if (!tx.item(itemId)) return;
  const reopened = new Set([itemId]);
  let changed = true;
  while (changed) {
    changed = false;
    for (const item of tx.allItems().sort((a, b) => a.index - b.index)) {
      if (item.stored !== "skipped" || item.skipped_by === null || !reopened.has(item.skipped_by)) continue;
      tx.putItem({ ...item, stored: "waiting", skipped_by: null });
      tx.emit("item.reopened", { item_id: item.item_id, because: itemId });
      reopened.add(item.item_id);
      changed = true;
    }
  }
}

/** Stop: every item not yet released is cancelled (released ones are revoked with their orders). */
export function cancelItems(tx: Tx): string[] {
  const cancelled: string[] = [];
  for (const item of tx.allItems().sort((a, b) => a.index - b.index)) {
    if (item.stored !== "waiting") continue;
    tx.putItem({ ...item, stored: "cancelled" });
    tx.emit("item.cancelled", { item_id: item.item_id, reason: "run stopped" });
    cancelled.push(item.item_id);
  }
  return cancelled;
}

/** This file's run operations (reducer.ts joins every concern's table). */
export const ITEM_STEPS = { add_items: addItems } satisfies StepTable;
