// The run object's storage layout and outbox rules: one key per entity, the event log and outbox keys, the size cap
// of a queued event, and when the one alarm fires (the earliest timer, or the outbox retry while items are unsent).
import type { QueuedRunEvent } from "../../../contracts/internal-events";
import type {
  Activation,
  DeadLetter,
  EarlyApproval,
  Effects,
  Gate,
  Item,
  OpRecord,
  Order,
  RunState,
  WardenRunEvent,
} from "./model";
import { nextDeadline } from "./reducer";

export type OutboxItem = {
  n: number;
  events: WardenRunEvent[];
  records: Effects["records"];
  activations: Activation[];
  /** item rows for the team's board (absent on items written before boards existed) */
  board?: Effects["board"];
};

export const MAX_PUT = 128;
export const FLUSH_RETRY_MAX_MS = 60_000;
/** while an outbox item is unsent the alarm is armed at most this far ahead, in case the object dies mid-flush */
export const OUTBOX_SAFETY_MS = 5_000;
/** how much later than OUTBOX_SAFETY_MS an already armed timer may fire and still serve as the safety retry */
const OUTBOX_SAFETY_SLACK_MS = 30_000;
export const pad = (n: number) => String(n).padStart(12, "0");

/** Storage layout: "meta" and "steps" for the run, one key per entity so a change writes only what changed,
 * "ev:<seq>" the event log, "out:<n>" the outbox. */
export const MAPS = [
  ["items", "i:"],
  ["orders", "o:"],
  ["gates", "g:"],
  ["early", "x:"],
  ["ops", "op:"],
  ["deadLetters", "dl:"],
] as const;
export const idOf: Record<(typeof MAPS)[number][0], (v: never) => string> = {
  items: (i: Item) => i.item_id,
  orders: (o: Order) => o.order_id,
  gates: (g: Gate) => g.gate_id,
  early: (e: EarlyApproval) => e.gate_id,
  ops: (o: OpRecord) => o.op_id,
  deadLetters: (d: DeadLetter) => d.id,
};

/** Queue messages are capped at 128 KB: an event that would not fit goes out as its envelope, marked truncated. */
const MAX_EVENT_BYTES = 100_000;
export function fitForQueue(e: QueuedRunEvent): QueuedRunEvent {
  if (JSON.stringify(e).length <= MAX_EVENT_BYTES) return e;
  const { event_id, type, team_id, run_id, seq, occurred_at } = e;
  return { event_id, type, team_id, run_id, seq, occurred_at, truncated: true };
}

/**
 * When the one alarm should fire: the earliest timer of the state, or the outbox retry while items are unsent. A
 * retry after a failed flush is exact (the back-off); the safety retry of an item not yet flushed only needs some
 * alarm by then plus OUTBOX_SAFETY_SLACK_MS, because an object restarted by any alarm retries its outbox on load — so
 * a timer already armed (a lease expiry) serves, and an operation writes its alarm once, not again after its flush.
 */
export function alarmFor(state: RunState | null, outboxSize: number, retryAt: number | null, exact: boolean) {
  const deadline = nextDeadline(state);
  const retry = outboxSize > 0 ? retryAt : null;
  if (deadline === null) return retry;
  if (retry === null || (!exact && deadline <= retry + OUTBOX_SAFETY_SLACK_MS)) return deadline;
  return Math.min(deadline, retry);
}
