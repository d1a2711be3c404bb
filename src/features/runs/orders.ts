// Orders and leases steps of the reducer (pure): post an order, lease it, heartbeat, and rescue an expired lease.

import type { WorkOrderV1 } from "../../../contracts/work-order.v1";
import type { AppError } from "../../errors";
import { canonicalJson } from "../../lib/digest";
import { laneEnded, laneGranted, laneHeartbeat } from "./lease-lane";
import {
  type Actor,
  type CommandOf,
  type Failure,
  HEARTBEAT_MS,
  LEASE_TTL_MS,
  MAX_RESCUES,
  type Order,
  type RunMeta,
} from "./model";
import type { RunOpReply } from "./operations";
import { conflict, deadLetterOrder, forbidden, notFound, rejected, type StepTable, type Tx, taskFields } from "./tx";

export function addOrder(tx: Tx, cmd: CommandOf<"add_order">): Failure | RunOpReply<"add_order"> {
  const { order } = cmd;
  if (tx.run.kind === "control") return rejected("the control run takes no work orders");
  if (tx.run.status === "STOPPED") return conflict("run is stopped");
  if (cmd.actor.task_id !== undefined && cmd.actor.task_id !== order.task_id) {
    return forbidden("this token is bound to another task");
  }
  const existing = tx.order(order.order_id);
  if (existing) {
    const same = canonicalJson(existing.body) === canonicalJson(order) && existing.skill === cmd.skill;
    if (!same) return conflict(`order ${order.order_id} already exists with a different body`);
    return { order_id: existing.order_id, status: existing.status };
  }
  if (tx.item(order.order_id)) return conflict(`order ${order.order_id}: that id is an item of the run's graph`);
  const created = createOrder(tx, order, cmd.skill, cmd.actor.subject);
  return { order_id: created.order_id, status: created.status };
}

/** A new QUEUED order of the run (`task.created` emitted): posted by a client, or released from a graph item. */
export function createOrder(tx: Tx, order: WorkOrderV1, skill: string | null, createdBy: string): Order {
  const created: Order = {
    order_id: order.order_id,
    task_id: order.task_id,
    goal: order.goal,
    skill,
    body: order,
    index: tx.run.order_count,
    status: "QUEUED",
    created_at: tx.now,
    updated_at: tx.now,
    attempts: 0,
    failures: {},
    failure_history: [],
    rescues: 0,
    epoch: 0,
    lease: null,
    not_before: null,
    gate_id: null,
    strict: false,
    reissued: false,
    dead_letter_id: null,
    last: null,
    output: null,
  };
  tx.patchRun({ order_count: tx.run.order_count + 1 });
  tx.putOrder(created);
  tx.emit("task.created", { ...taskFields(tx.run, created), goal: created.goal, created_by: createdBy });
  return created;
}

/** A lease refused for a while (back-off or a held lease): 409 with Retry-After in whole seconds (at least 1). */
function backOff(message: string, waitMs: number): Failure {
  return { ok: false, error: { code: "conflict", message, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } };
}

export function orderFor(tx: Tx, actor: Actor, orderId: string): Order | { ok: false; error: AppError } {
  const order = tx.order(orderId);
  if (!order) return notFound(`order ${orderId} not found`);
  if (actor.task_id !== undefined && actor.task_id !== order.task_id)
    return forbidden("this token is bound to another task");
  return order;
}

/** An expired lease goes back to the queue with its epoch fenced off (or dead-letters after MAX_RESCUES). */
export function rescue(tx: Tx, order: Order): void {
  const lease = order.lease as NonNullable<Order["lease"]>;
  const rescues = order.rescues + 1;
  const exhausted = rescues >= MAX_RESCUES;
  const step = tx.addStep({
    order_id: order.order_id,
    task_id: order.task_id,
    op_id: `lease:${lease.lease_id}`,
    attempt: order.attempts + 1,
    outcome: "LEASE_EXPIRED",
    failure_class: "lease_expired",
    next: exhausted ? "dead_letter" : "retry",
    tokens_in: 0,
    tokens_out: 0,
    holder: lease.holder,
  });
  tx.emit("task.lease_expired", {
    ...taskFields(tx.run, order),
    lease_id: lease.lease_id,
    epoch: lease.epoch,
    worker_id: lease.worker_id,
    expired_at: lease.expires_at,
    rescues,
  });
  const requeued: Order = {
    ...order,
    lease: null,
    rescues,
    status: "QUEUED",
    leases: laneEnded(order, "expired", lease.expires_at),
  };
  if (exhausted) {
    deadLetterOrder(tx, requeued, `lease:${lease.lease_id}`, "lease_expired", "lease_expired", step);
  } else {
    tx.putOrder(requeued);
  }
}

export function lease(tx: Tx, cmd: CommandOf<"lease">): Failure | RunOpReply<"lease"> {
  if (tx.run.status === "STOPPED") return conflict("run is stopped");
  const found = orderFor(tx, cmd.actor, cmd.order_id);
  if ("ok" in found) return found;
  const item = tx.item(found.order_id);
  // the index lags the board and knows nothing of priority, fair share or in-flight reservations
  if (item !== undefined && cmd.from_index === true)
    return conflict(`item ${found.order_id} is in the run's graph: only the board leases it (lease-next)`);
  const persona = item?.body.persona_id;
  if (persona !== undefined) {
    if (cmd.actor.persona_id !== persona)
      return forbidden(`item ${found.order_id} is leased only by persona ${persona}`);
    if (cmd.board !== true)
      return conflict(`item ${found.order_id} has a persona: lease it through POST /v1/orders/lease-next (its cap)`);
  }
  const order = leasable(tx, found);
  if ("ok" in order) return order;
  const granted = grant(tx, order, cmd);
  return {
    lease_id: cmd.lease_id,
    epoch: granted.epoch,
    lease_ttl_ms: LEASE_TTL_MS,
    heartbeat_ms: HEARTBEAT_MS,
    expires_at: tx.now + LEASE_TTL_MS,
    attempt: granted.attempts + 1,
    strict: granted.strict,
    budget: stepBudget(tx.run, granted),
    order: granted.body,
    ...(granted.reviewed_by ? { reviewed_by: granted.reviewed_by } : {}),
  };
}

/** The order, ready to lease (an expired lease rescued first), or why it cannot be leased now. */
function leasable(tx: Tx, order: Order): Failure | Order {
  if (order.status === "LEASED") {
    const held = order.lease as NonNullable<Order["lease"]>;
    if (held.expires_at > tx.now)
      return backOff(
        `order ${order.order_id} is leased until ${held.expires_at} (epoch ${held.epoch})`,
        held.expires_at - tx.now,
      );
    rescue(tx, order);
    order = tx.order(order.order_id) as Order;
  }
  if (order.status === "RETRY_WAIT") {
    const notBefore = order.not_before ?? 0;
    if (notBefore > tx.now)
      return backOff(`order ${order.order_id} may be retried from ${notBefore}`, notBefore - tx.now);
  } else if (order.status !== "QUEUED") {
    const why = order.status === "GATED" ? ` (waiting on gate ${order.gate_id})` : "";
    return conflict(`order ${order.order_id} is ${order.status}${why}`);
  }
  return order;
}

/** Grants the lease at the next epoch: the order LEASED (the run RUNNING on its first lease), `task.leased` emitted. */
function grant(tx: Tx, order: Order, cmd: CommandOf<"lease">): Order {
  const epoch = order.epoch + 1;
  const newLease = {
    lease_id: cmd.lease_id,
    epoch,
    worker_id: cmd.worker_id,
    holder: cmd.actor.subject,
    ...(cmd.actor.persona_id ? { persona: cmd.actor.persona_id } : {}),
    granted_at: tx.now,
    expires_at: tx.now + LEASE_TTL_MS,
  };
  const granted: Order = {
    ...order,
    status: "LEASED",
    epoch,
    not_before: null,
    lease: newLease,
    leases: laneGranted(order, newLease),
  };
  tx.putOrder(granted);
  if (tx.run.status === "PENDING") {
    tx.setStatus("RUNNING");
    tx.emit("run.running", {});
  }
  tx.emit("task.leased", {
    ...taskFields(tx.run, granted),
    lease_id: cmd.lease_id,
    epoch,
    worker_id: cmd.worker_id,
    holder: cmd.actor.subject,
    attempt: granted.attempts + 1,
  });
  return granted;
}

export function stepBudget(run: RunMeta, order: Order) {
  return {
    input_tokens: run.budget.input_tokens,
    output_tokens: run.budget.output_tokens,
    ...(order.body.cost_budget_tokens === undefined ? {} : { cost_budget_tokens: order.body.cost_budget_tokens }),
    ...(run.budget.total_tokens === null
      ? {}
      : { run_tokens_left: Math.max(0, run.budget.total_tokens - run.used.tokens_in - run.used.tokens_out) }),
  };
}

/**
 * Current lease check shared by heartbeat and complete: a 409 with nothing changed when stale or expired, a 403 when
 * the caller is not the subject the lease was granted to (a lease id alone never lets another worker act on it).
 */
export function checkLease(
  tx: Tx,
  order: Order,
  leaseId: string,
  epoch: number,
  subject: string,
): { ok: false; error: AppError } | null {
  if (order.status !== "LEASED" || order.lease === null) {
    return conflict(`stale lease: order ${order.order_id} is ${order.status} (current epoch ${order.epoch})`);
  }
  if (order.lease.holder !== subject) return forbidden(`order ${order.order_id} is leased to another subject`);
  if (order.lease.epoch !== epoch) return conflict(`stale epoch ${epoch}: current epoch is ${order.lease.epoch}`);
  if (order.lease.lease_id !== leaseId) return conflict(`lease ${leaseId} is not the current lease`);
  if (order.lease.expires_at <= tx.now) return conflict(`lease expired at ${order.lease.expires_at}`);
  return null;
}

export function heartbeat(tx: Tx, cmd: CommandOf<"heartbeat">): Failure | RunOpReply<"heartbeat"> {
  const found = orderFor(tx, cmd.actor, cmd.order_id);
  if ("ok" in found) return found;
  const stale = checkLease(tx, found, cmd.lease_id, cmd.epoch, cmd.actor.subject);
  if (stale) return stale;
  const lease = found.lease as NonNullable<Order["lease"]>;
  const expires_at = tx.now + LEASE_TTL_MS;
  tx.putOrder({ ...found, lease: { ...lease, expires_at }, leases: laneHeartbeat(found) });
  return {
    lease_id: lease.lease_id,
    epoch: lease.epoch,
    expires_at,
    lease_ttl_ms: LEASE_TTL_MS,
    heartbeat_ms: HEARTBEAT_MS,
  };
}

/** This file's run operations (reducer.ts joins every concern's table). */
export const ORDER_STEPS = { add_order: addOrder, lease, heartbeat } satisfies StepTable;
