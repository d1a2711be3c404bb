// Read models of a run (pure): the run status view, explain-exit, and gate views for the HTTP responses.

import { DEFAULT_ITEM_PRIORITY } from "../../../contracts/work-item.v1";
import { omitNull } from "../../lib/omit-null";
import { earlyView, gateView } from "../gates/domain";
import { itemState } from "./item-state";
import { type Item, type Order, type RunState, STEPS_SHOWN, type Step } from "./model";

function orderView(o: Order) {
  return {
    order_id: o.order_id,
    task_id: o.task_id,
    goal: o.goal,
    status: o.status,
    attempts: o.attempts,
    epoch: o.epoch,
    rescues: o.rescues,
    strict: o.strict,
    reissued: o.reissued,
    ...omitNull({
      skill: o.skill,
      lease: o.lease
        ? {
            // no lease_id: a live lease id is for its holder only (the lease response), never for readers
            epoch: o.lease.epoch,
            worker_id: o.lease.worker_id,
            expires_at: o.lease.expires_at,
          }
        : null,
      not_before: o.not_before,
      gate_id: o.gate_id,
      dead_letter_id: o.dead_letter_id,
      reviewed_by: o.reviewed_by ?? null,
      input_patch: o.input_patch ?? null,
      last: o.last,
      used_mem_ids: usedMemIds(o.output),
    }),
    // the lease lane: who held the order at which epoch, heartbeats, and how each lease ended (rescues = expired)
    leases: (o.leases ?? []).map((l) => ({ ...l, heartbeats: l.heartbeats ?? 0 })),
  };
}

/** the memory ids a worker's output cites (`used_mem_ids`, seed 003 §10), for the trace page and the feed */
export function usedMemIds(output: unknown): string[] | null {
  if (output === null || typeof output !== "object") return null;
  const ids = (output as { used_mem_ids?: unknown }).used_mem_ids;
  if (!Array.isArray(ids)) return null;
  const kept = ids.filter((x): x is string => typeof x === "string").slice(0, 50);
  return kept.length > 0 ? kept : null;
}

const stepView = (s: Step) => s;

function itemView(state: RunState, i: Item) {
  const order = state.orders[i.item_id];
  return {
    item_id: i.item_id,
    state: itemState(i, order),
    goal: i.body.goal,
    depends_on: i.body.depends_on ?? [],
    priority: i.body.priority ?? DEFAULT_ITEM_PRIORITY,
    ...omitNull({
      persona_id: i.body.persona_id ?? null,
      skill: i.body.skill ?? null,
      order_id: i.stored === "released" ? i.item_id : null,
      released_at: i.released_at,
      skipped_by: i.skipped_by,
    }),
  };
}

const itemsOf = (state: RunState) => Object.values(state.items ?? {}).sort((a, b) => a.index - b.index);

/** explain-exit's graph part: the dead-lettered items and every item skipped behind them, with what skipped it. */
function graphExit(state: RunState) {
  const items = itemsOf(state).map((i) => itemView(state, i));
  if (items.length === 0) return {};
  return {
    graph: {
      failed: items.filter((i) => i.state === "dead_letter").map((i) => i.item_id),
      skipped: items
        .filter((i) => i.state === "skipped")
        .map((i) => ({ item_id: i.item_id, because: i.skipped_by ?? null })),
      cancelled: items.filter((i) => i.state === "cancelled").map((i) => i.item_id),
    },
  };
}

export function runView(state: RunState) {
  const { run } = state;
  const orders = Object.values(state.orders).sort((a, b) => a.index - b.index);
  const gates = Object.values(state.gates).sort((a, b) => a.seq - b.seq);
  const deadLetters = Object.values(state.deadLetters).sort((a, b) => a.seq - b.seq);
  return {
    run_id: run.run_id,
    kind: run.kind,
    status: run.status,
    goal: run.goal,
    template: run.template,
    skills: run.skills,
    created_by: run.created_by,
    created_at: run.created_at,
    updated_at: run.updated_at,
    steps: run.steps.slice(-STEPS_SHOWN).map(stepView),
    steps_total: run.steps_total,
    orders: orders.map(orderView),
    items: itemsOf(state).map((i) => itemView(state, i)),
    gates: gates.map((g) => gateView(run.run_id, g)),
    /** approvals kept for gates not armed yet: what will apply the moment such a gate opens */
    early_approvals: Object.values(state.early)
      .sort((a, b) => a.received_at - b.received_at)
      .map((e) => earlyView(run.run_id, e)),
    hints: run.hints,
    failure_hints: run.failure_hints ?? [],
    budget: {
      input_tokens: run.budget.input_tokens,
      output_tokens: run.budget.output_tokens,
      total_tokens: run.budget.total_tokens,
      used: { tokens_in: run.used.tokens_in, tokens_out: run.used.tokens_out },
      breaches: run.budget_breaches ?? 0,
    },
    dead_letters: deadLetters,
    policy_snapshot: run.snapshot,
    exit: run.exit,
  };
}

/** GET /v1/runs/:run_id/explain-exit: the terminal step, every MemRL decision kept, every gate, the hints. */
export function explainView(state: RunState) {
  const { run } = state;
  const ended = run.exit !== null;
  return {
    run_id: run.run_id,
    status: run.status,
    ended,
    reason: run.exit?.reason ?? `run is ${run.status}: ${Object.keys(state.orders).length} orders, not settled`,
    ended_at: run.exit?.at ?? null,
    terminal_step: run.exit?.terminal_step ?? null,
    decisions: run.steps
      .filter((s) => s.decision !== undefined)
      .map((s) => ({ order_id: s.order_id, op_id: s.op_id, attempt: s.attempt, next: s.next, ...s.decision })),
    gates: Object.values(state.gates)
      .sort((a, b) => a.seq - b.seq)
      .map((g) => gateView(run.run_id, g)),
    dead_letters: Object.values(state.deadLetters).sort((a, b) => a.seq - b.seq),
    hints: run.hints,
    failure_hints: run.failure_hints ?? [],
    tokens: { in: run.used.tokens_in, out: run.used.tokens_out },
    steps: run.steps_total,
    ...graphExit(state),
  };
}
