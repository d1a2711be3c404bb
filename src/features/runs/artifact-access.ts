// Who may attach an artifact to a run (a read of the run's state): a token bound to this run, or the named order's lease holder.
import { z } from "zod";
import type { AppError } from "../../errors";
import { own } from "../../lib/own";
import type { Result } from "../../lib/result";
import type { RunState } from "./model";

export const ArtifactAccessRequest = {
  order_id: z.string().nullable(),
  lease_id: z.string().nullable(),
  epoch: z.int().nullable(),
};
export const ArtifactAccess = z.object({ run_id: z.string(), order_id: z.string().nullable() });
type Access = z.infer<typeof ArtifactAccess>;
type Request = { actor: { run_id?: string }; order_id: string | null; lease_id: string | null; epoch: number | null };

/**
 * Allowed: a token bound to this run (the run's own agent), or the current lease of the named order (lease id and
 * epoch as the lease answered them). Anything else is 409: the order is not the caller's to add evidence to.
 */
export function artifactAccess(state: RunState, req: Request): Result<Access, AppError> {
  const runId = state.run.run_id;
  if (req.order_id === null) {
    if (req.actor.run_id === runId) return { ok: true, value: { run_id: runId, order_id: null } };
    return {
      ok: false,
      error: {
        code: "conflict",
        message: "send x-order-id, x-lease-id and x-lease-epoch of the order's lease, or use a token bound to this run",
      },
    };
  }
  const order = own(state.orders, req.order_id);
  if (!order) return { ok: false, error: { code: "not_found", message: `order ${req.order_id} not found` } };
  const lease = order.lease;
  if (order.status !== "LEASED" || !lease || lease.lease_id !== req.lease_id || lease.epoch !== req.epoch) {
    return {
      ok: false,
      error: { code: "conflict", message: `the caller does not hold order ${req.order_id}'s current lease` },
    };
  }
  return { ok: true, value: { run_id: runId, order_id: order.order_id } };
}
