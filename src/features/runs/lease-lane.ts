// An order's lease lane (pure): every lease granted, who held it at which epoch, and how it ended.
import { LEASES_KEPT, type LeaseRecord, type Order } from "./model";

/** The order with a new lease record (the most recent LEASES_KEPT are kept). */
export function laneGranted(order: Order, lease: NonNullable<Order["lease"]>): LeaseRecord[] {
  const rec: LeaseRecord = {
    epoch: lease.epoch,
    holder: lease.holder,
    worker_id: lease.worker_id,
    granted_at: lease.granted_at,
    ended: null,
    ended_at: null,
  };
  return [...(order.leases ?? []), rec].slice(-LEASES_KEPT);
}

/** The lane with one more heartbeat on the held lease. */
export function laneHeartbeat(order: Order): LeaseRecord[] | undefined {
  const lane = order.leases;
  const last = lane?.at(-1);
  if (!lane || !last || last.ended !== null) return lane;
  return [...lane.slice(0, -1), { ...last, heartbeats: (last.heartbeats ?? 0) + 1 }];
}

/** The lane with the held lease (the newest one still open) marked as ended. */
export function laneEnded(order: Order, how: NonNullable<LeaseRecord["ended"]>, at: number): LeaseRecord[] | undefined {
  const lane = order.leases;
  if (!lane || lane.length === 0) return lane;
  const last = lane[lane.length - 1] as LeaseRecord;
  if (last.ended !== null) return lane;
  return [...lane.slice(0, -1), { ...last, ended: how, ended_at: at }];
}
