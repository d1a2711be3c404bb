// RunRecordStore over D1 with drizzle: one db.batch() per write (atomic), idempotent inserts and guarded updates.

import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { incoming } from "../../../adapters/d1/upsert";
import { camelKeys } from "../../../lib/camel-keys";
import { log } from "../../../lib/log";
import { auditInsert } from "../../audit";
import { retryAdjustments } from "../../learning/store/tables";
import { gateColumns } from "./run-index";
import type { RecordOp, RunRecordStore } from "./run-record-port";
import { approvalEvents, attempts, deadLetters, gates, runs, workOrders } from "./tables";

type Op<T extends RecordOp["t"]> = Extract<RecordOp, { t: T }>;

/** the conflict update of a row with a status: an older write retried late never overwrites a newer status */
const newerStatusWins = (updatedAt: SQLiteColumn) => ({
  set: { status: sql`excluded.status`, updatedAt: sql`excluded.updated_at` },
  setWhere: sql`${updatedAt} <= excluded.updated_at`,
});

/** the run index row */
function upsertRun(db: DrizzleD1Database, r: Op<"run">["row"]): BatchItem<"sqlite"> {
  return db
    .insert(runs)
    .values(camelKeys(r))
    .onConflictDoUpdate({ target: runs.runId, ...newerStatusWins(runs.updatedAt) });
}

/** an order row */
function upsertOrder(db: DrizzleD1Database, r: Op<"order">["row"]): BatchItem<"sqlite"> {
  return db
    .insert(workOrders)
    .values(camelKeys(r))
    .onConflictDoUpdate({ target: [workOrders.runId, workOrders.orderId], ...newerStatusWins(workOrders.updatedAt) });
}

/** a gate row; a decided gate never goes back to pending through a late retried write */
function upsertGate(db: DrizzleD1Database, r: Op<"gate">["row"]): BatchItem<"sqlite"> {
  return db
    .insert(gates)
    .values(camelKeys(r))
    .onConflictDoUpdate({
      target: gates.gateId,
      set: incoming(gates, ["status", "decidedBy", "decidedAt", "outcome", "updatedAt"]),
      setWhere: sql`${gates.status} = 'pending'`,
    });
}

/** one attempt, once per op_id */
function insertAttempt(db: DrizzleD1Database, r: Op<"attempt">["row"]): BatchItem<"sqlite"> {
  return db.insert(attempts).values(camelKeys(r)).onConflictDoNothing();
}

/** one gate decision, once */
function insertApproval(db: DrizzleD1Database, r: Op<"approval">["row"]): BatchItem<"sqlite"> {
  return db.insert(approvalEvents).values(camelKeys(r)).onConflictDoNothing();
}

/** a dead-lettered order, once */
function insertDeadLetter(db: DrizzleD1Database, r: Op<"dead_letter">["row"]): BatchItem<"sqlite"> {
  return db.insert(deadLetters).values(camelKeys(r)).onConflictDoNothing();
}

/** marks a dead letter resolved, unless it already is */
function resolveDeadLetter(db: DrizzleD1Database, op: Op<"dead_letter_resolved">): BatchItem<"sqlite"> {
  return db
    .update(deadLetters)
    .set({ resolvedAt: op.resolved_at, resolver: op.resolver })
    .where(and(eq(deadLetters.id, op.id), isNull(deadLetters.resolvedAt)));
}

/** an audit row through audit_log's one owner (audit-log.ts) */
function auditStatement(db: DrizzleD1Database, r: Op<"audit">["row"]): BatchItem<"sqlite"> {
  return auditInsert(db, {
    id: r.id,
    teamId: r.team_id,
    actor: r.actor,
    action: r.action,
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    metadata: (r.metadata ?? null) as Record<string, unknown> | null,
    createdAt: r.created_at,
  });
}

/** one idempotent statement per record (insert-or-ignore, or a guarded upsert/update) */
function recordStatement(db: DrizzleD1Database, op: RecordOp): BatchItem<"sqlite"> {
  switch (op.t) {
    case "run":
      return upsertRun(db, op.row);
    case "order":
      return upsertOrder(db, op.row);
    case "gate":
      return upsertGate(db, op.row);
    case "attempt":
      return insertAttempt(db, op.row);
    case "approval":
      return insertApproval(db, op.row);
    case "dead_letter":
      return insertDeadLetter(db, op.row);
    case "dead_letter_resolved":
      return resolveDeadLetter(db, op);
    case "audit":
      return auditStatement(db, op.row);
  }
}

export function createD1RunRecord(db: DrizzleD1Database): RunRecordStore {
  return {
    /** The owner of `gate` records the first acknowledgement of a pending gate and reads the row back in one batch. */
    async ackGate(teamId, gateId, by, now) {
      const where = and(eq(gates.teamId, teamId), eq(gates.gateId, gateId));
      const [, rows] = await db.batch([
        db
          .update(gates)
          .set({ ackedBy: by, ackedAt: now })
          .where(and(where, eq(gates.status, "pending"), isNull(gates.ackedBy))),
        db
          .select({ ...gateColumns, acked_by: gates.ackedBy, acked_at: gates.ackedAt })
          .from(gates)
          .where(where)
          .limit(1),
      ]);
      return rows[0] ?? null;
    },

    async write(ops) {
      if (ops.length === 0) return;
      const [first, ...rest] = ops.map((op) => recordStatement(db, op));
      const results = (await db.batch([first as BatchItem<"sqlite">, ...rest])) as unknown as {
        meta?: { changes?: number };
      }[];
      ops.forEach((op, i) => {
        // a guarded update that changes nothing was applied before (a retried flush); say so, never fail
        if (op.t === "dead_letter_resolved" && results[i]?.meta?.changes === 0) {
          log.warn("dead letter already resolved", { dead_letter_id: op.id });
        }
      });
    },

    async retryAdjustments(teamId) {
      return db
        .select({
          failureClass: retryAdjustments.failureClass,
          backoffMultiplier: retryAdjustments.backoffMultiplier,
          maxAttemptsOverride: retryAdjustments.maxAttemptsOverride,
        })
        .from(retryAdjustments)
        .where(eq(retryAdjustments.teamId, teamId));
    },
  };
}

/**
 * The retention delete of approval_event (this module's table), for the daily sweep: the oldest `limit` events
 * created before `cutoff`, one page per statement (a subquery, so the ids never travel as parameters).
 */
export function deleteApprovalEventsPageStatement(db: DrizzleD1Database, cutoff: number, limit: number) {
  const page = db
    .select({ id: approvalEvents.id })
    .from(approvalEvents)
    .where(lt(approvalEvents.createdAt, cutoff))
    .orderBy(asc(approvalEvents.createdAt))
    .limit(limit);
  return db.delete(approvalEvents).where(inArray(approvalEvents.id, page));
}
