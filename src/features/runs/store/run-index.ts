// RunIndex over D1 with drizzle: team-wide lists read from the tables the run outbox writes (runs, gate, work_order).
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, type SQL } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { olderThan } from "../../../adapters/d1/keyset";
import type { RunIndex } from "./run-index-port";
import { gates, runs, workOrders } from "./tables";

/** The gate index row as the inbox reads it (also read back by the gate owner after an acknowledgement). */
export const gateColumns = {
  gate_id: gates.gateId,
  run_id: gates.runId,
  op_id: gates.opId,
  policy_key: gates.policyKey,
  kind: gates.kind,
  status: gates.status,
  opened_by: gates.openedBy,
  opened_at: gates.openedAt,
  deadline_at: gates.deadlineAt,
  decided_by: gates.decidedBy,
  decided_at: gates.decidedAt,
  outcome: gates.outcome,
};

/** the team-wide lists of runs and gates */
function runAndGateLists(db: DrizzleD1Database): Pick<RunIndex, "listRuns" | "listGates"> {
  return {
    async listRuns(teamId, q) {
      const where: (SQL | undefined)[] = [eq(runs.teamId, teamId)];
      if (q.status !== undefined) where.push(eq(runs.status, q.status));
      if (q.kind !== undefined) where.push(eq(runs.kind, q.kind));
      if (q.cursor !== undefined) where.push(olderThan(runs.createdAt, runs.runId, q.cursor.at, q.cursor.id));
      return db
        .select({
          run_id: runs.runId,
          goal: runs.goal,
          status: runs.status,
          kind: runs.kind,
          created_at: runs.createdAt,
          updated_at: runs.updatedAt,
        })
        .from(runs)
        .where(and(...where))
        .orderBy(desc(runs.createdAt), desc(runs.runId))
        .limit(q.limit);
    },

    async listGates(teamId, q) {
      return db
        .select(gateColumns)
        .from(gates)
        .where(and(eq(gates.teamId, teamId), eq(gates.status, q.status)))
        .orderBy(asc(gates.openedAt), asc(gates.gateId))
        .limit(q.limit);
    },
  };
}

/** one gate, and the acknowledgements of several */
function gateReads(db: DrizzleD1Database): Pick<RunIndex, "gate" | "gateAcks"> {
  return {
    async gate(teamId, gateId) {
      const rows = await db
        .select(gateColumns)
        .from(gates)
        .where(and(eq(gates.teamId, teamId), eq(gates.gateId, gateId)))
        .limit(1);
      return rows[0] ?? null;
    },

    async gateAcks(teamId, gateIds) {
      if (gateIds.length === 0) return new Map();
      const rows = await db
        .select({
          gateId: gates.gateId,
          by: gates.ackedBy,
          at: gates.ackedAt,
          opened_at: gates.openedAt,
          policy_key: gates.policyKey,
          kind: gates.kind,
        })
        .from(gates)
        .where(and(eq(gates.teamId, teamId), inArray(gates.gateId, [...gateIds]), isNotNull(gates.ackedBy)));
      return new Map(
        rows.map(({ gateId, by, at, ...facts }) => [gateId, { acked_by: by ?? "", acked_at: at ?? 0, ...facts }]),
      );
    },
  };
}

/** the order's reference (AvailableOrderRow): which run, order and task, and the skill it asks for */
const orderRefColumns = {
  run_id: workOrders.runId,
  order_id: workOrders.orderId,
  task_id: workOrders.taskId,
  skill: workOrders.skill,
};

/** the orders a team's workers may lease, and a task's orders */
function orderLists(db: DrizzleD1Database): Pick<RunIndex, "availableOrders" | "taskOrders"> {
  return {
    async availableOrders(teamId, q) {
      const where: (SQL | undefined)[] = [
        eq(workOrders.teamId, teamId),
        inArray(workOrders.status, ["QUEUED", "RETRY_WAIT"]),
        inArray(runs.status, ["PENDING", "RUNNING"]),
      ];
      if (q.skills !== undefined)
        where.push(
          q.skills.length === 0
            ? isNull(workOrders.skill)
            : or(isNull(workOrders.skill), inArray(workOrders.skill, q.skills)),
        );
      if (q.runId !== undefined) where.push(eq(workOrders.runId, q.runId));
      if (q.taskId !== undefined) where.push(eq(workOrders.taskId, q.taskId));
      return db
        .select(orderRefColumns)
        .from(workOrders)
        .innerJoin(runs, eq(runs.runId, workOrders.runId))
        .where(and(...where))
        .orderBy(asc(workOrders.createdAt), asc(workOrders.orderId))
        .limit(q.limit);
    },

    async taskOrders(teamId, taskId, limit) {
      return db
        .select({ ...orderRefColumns, status: workOrders.status })
        .from(workOrders)
        .where(and(eq(workOrders.teamId, teamId), eq(workOrders.taskId, taskId)))
        .orderBy(desc(workOrders.createdAt))
        .limit(limit);
    },
  };
}

export function createD1RunIndex(db: DrizzleD1Database): RunIndex {
  return { ...runAndGateLists(db), ...gateReads(db), ...orderLists(db) };
}
