// RunRecordStore over D1 with drizzle: one db.batch() per write (atomic), idempotent inserts and guarded updates.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { RecordOp, RunRecordStore } from "../../ports/run-record";
import { auditInsert } from "./audit-log";
import { approvalEvents, attempts, deadLetters, gates, retryAdjustments, runs, workOrders } from "./schema";

export function createD1RunRecord(db: DrizzleD1Database): RunRecordStore {
  function statement(op: RecordOp): BatchItem<"sqlite"> {
    switch (op.t) {
      case "run": {
        const r = op.row;
        return db
          .insert(runs)
          .values({
            runId: r.run_id,
            teamId: r.team_id,
            goal: r.goal,
            status: r.status,
            kind: r.kind,
            createdAt: r.created_at,
            updatedAt: r.updated_at,
          })
          .onConflictDoUpdate({
            target: runs.runId,
            set: { status: sql`excluded.status`, updatedAt: sql`excluded.updated_at` },
            // an older write retried late never overwrites a newer status
            setWhere: sql`${runs.updatedAt} <= excluded.updated_at`,
          });
      }
      case "order": {
        const r = op.row;
        return db
          .insert(workOrders)
          .values({
            orderId: r.order_id,
            runId: r.run_id,
            teamId: r.team_id,
            taskId: r.task_id,
            goal: r.goal,
            status: r.status,
            body: r.body,
            skill: r.skill,
            createdAt: r.created_at,
            updatedAt: r.updated_at,
          })
          .onConflictDoUpdate({
            target: [workOrders.runId, workOrders.orderId],
            set: { status: sql`excluded.status`, updatedAt: sql`excluded.updated_at` },
            setWhere: sql`${workOrders.updatedAt} <= excluded.updated_at`,
          });
      }
      case "gate": {
        const r = op.row;
        return db
          .insert(gates)
          .values({
            gateId: r.gate_id,
            teamId: r.team_id,
            runId: r.run_id,
            opId: r.op_id,
            policyKey: r.policy_key,
            kind: r.kind,
            status: r.status,
            openedBy: r.opened_by,
            openedAt: r.opened_at,
            deadlineAt: r.deadline_at,
            decidedBy: r.decided_by,
            decidedAt: r.decided_at,
            outcome: r.outcome,
            updatedAt: r.updated_at,
          })
          .onConflictDoUpdate({
            target: gates.gateId,
            set: {
              status: sql`excluded.status`,
              decidedBy: sql`excluded.decided_by`,
              decidedAt: sql`excluded.decided_at`,
              outcome: sql`excluded.outcome`,
              updatedAt: sql`excluded.updated_at`,
            },
            // a decided gate never goes back to pending through a late retried write
            setWhere: sql`${gates.status} = 'pending'`,
          });
      }
      case "attempt": {
        const r = op.row;
        return db
          .insert(attempts)
          .values({
            attemptId: r.attempt_id,
            runId: r.run_id,
            orderId: r.order_id,
            opId: r.op_id,
            outcome: r.outcome,
            failureClass: r.failure_class,
            next: r.next,
            tokensIn: r.tokens_in,
            tokensOut: r.tokens_out,
            holder: r.holder,
            personaId: r.persona_id,
            startedAt: r.started_at,
            endedAt: r.ended_at,
          })
          .onConflictDoNothing();
      }
      case "approval": {
        const r = op.row;
        return db
          .insert(approvalEvents)
          .values({
            id: r.id,
            teamId: r.team_id,
            runId: r.run_id,
            opId: r.op_id,
            gateId: r.gate_id,
            policyKey: r.policy_key,
            decision: r.decision,
            approver: r.approver,
            reason: r.reason,
            note: r.note,
            dedupeKey: r.dedupe_key,
            outcome: r.outcome,
            channel: r.channel,
            createdAt: r.created_at,
          })
          .onConflictDoNothing();
      }
      case "dead_letter": {
        const r = op.row;
        return db
          .insert(deadLetters)
          .values({
            id: r.id,
            teamId: r.team_id,
            runId: r.run_id,
            opId: r.op_id,
            reasonCode: r.reason_code,
            payload: r.payload,
            createdAt: r.created_at,
          })
          .onConflictDoNothing();
      }
      case "dead_letter_resolved":
        return db
          .update(deadLetters)
          .set({ resolvedAt: op.resolved_at, resolver: op.resolver })
          .where(and(eq(deadLetters.id, op.id), isNull(deadLetters.resolvedAt)));
      case "audit": {
        // audit_log's one owner (audit-log.ts) holds the insert
        const r = op.row;
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
    }
  }

  return {
    async write(ops) {
      if (ops.length === 0) return;
      const [first, ...rest] = ops.map(statement);
      const results = (await db.batch([first as BatchItem<"sqlite">, ...rest])) as unknown as {
        meta?: { changes?: number };
      }[];
      ops.forEach((op, i) => {
        // a guarded update that changes nothing was applied before (a retried flush); say so, never fail
        if (op.t === "dead_letter_resolved" && results[i]?.meta?.changes === 0) {
          console.warn(JSON.stringify({ level: "warn", msg: "dead letter already resolved", dead_letter_id: op.id }));
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
