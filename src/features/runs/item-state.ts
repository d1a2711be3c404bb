// An item's state as callers see it (pure): its own record until released, then what its order says.
import { DEFAULT_ITEM_PRIORITY } from "../../../contracts/work-item.v1";
import type { BoardRow, Item, ItemState, Order, OrderStatus } from "./model";

const FROM_ORDER: Record<OrderStatus, ItemState> = {
  QUEUED: "ready",
  RETRY_WAIT: "ready",
  GATED: "ready",
  LEASED: "leased",
  COMPLETE: "passed",
  DEAD_LETTER: "dead_letter",
  // a gate's approve_skip and a replan both end the item without an output its dependents could use
  SKIPPED: "skipped",
  REPLAN: "skipped",
  REVOKED: "cancelled",
};

/** the states after which an item never changes again (a dead letter may still be reissued by a human) */
export const ITEM_ENDED: ReadonlySet<ItemState> = new Set(["passed", "dead_letter", "skipped", "cancelled"]);
/** a dependency in one of these states skips its dependents */
export const ITEM_BLOCKS: ReadonlySet<ItemState> = new Set(["dead_letter", "skipped", "cancelled"]);

export function itemState(item: Item, order: Order | undefined): ItemState {
  if (item.stored !== "released") return item.stored;
  return order ? FROM_ORDER[order.status] : "ready";
}

/** The board's copy of one item: what dispatch needs (priority, persona, skill, when leasable). */
export function boardRow(item: Item, order: Order | undefined): BoardRow {
  const state = itemState(item, order);
  let leasableAt: number | null = null;
  if (state === "ready" && order) {
    // 0: at once (the board's clock is not the run's; only a back-off carries a time)
    if (order.status === "QUEUED") leasableAt = 0;
    else if (order.status === "RETRY_WAIT") leasableAt = order.not_before ?? order.updated_at;
  }
  return {
    item_id: item.item_id,
    state,
    priority: item.body.priority ?? DEFAULT_ITEM_PRIORITY,
    persona_id: item.body.persona_id ?? null,
    skill: item.body.skill ?? null,
    epoch: order?.epoch ?? 0,
    leasable_at: leasableAt,
    ready_at: item.released_at,
    tokens: order?.tokens ?? 0,
  };
}
