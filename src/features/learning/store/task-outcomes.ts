// run_task_outcome and failure_signature (D1, drizzle): task.* outcomes staged until their run is learned, and how
// often each failure signature recurred.
import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { added, incomingElseStored, larger, storedElseIncoming } from "../../../adapters/d1/upsert";
import type { StagedTaskRow, TaskSignalWrite } from "./learning-store-port";
import { failureSignatures, runTaskOutcomes } from "./tables";

/**
 * Stages one task.* event into its task's row. The merge does not depend on the order events arrive in: counters
 * add up, flags and high-water marks take the larger value, the first failure class stays, the last one is replaced.
 */
export function stageTaskOutcome(db: DrizzleD1Database, s: TaskSignalWrite) {
  const t = runTaskOutcomes;
  const failureClass = s.type === "task.completed" ? null : s.failureClass;
  return db
    .insert(runTaskOutcomes)
    .values({
      teamId: s.teamId,
      runId: s.runId,
      taskId: s.taskId,
      skill: s.skill,
      context: s.context,
      succeeded: s.type === "task.completed" ? 1 : 0,
      failures: s.type === "task.failed" ? 1 : 0,
      blocks: s.type === "task.blocked" ? 1 : 0,
      firstFailureClass: failureClass,
      lastFailureClass: failureClass,
      attempts: s.attempt ?? 0,
      costUnits: s.costUnits,
      steps: s.steps ?? 0,
      updatedAt: s.occurredAt,
    })
    .onConflictDoUpdate({
      target: [t.teamId, t.runId, t.taskId],
      set: {
        skill: storedElseIncoming(t.skill),
        context: storedElseIncoming(t.context),
        succeeded: larger(t.succeeded),
        failures: added(t.failures),
        blocks: added(t.blocks),
        firstFailureClass: storedElseIncoming(t.firstFailureClass),
        lastFailureClass: incomingElseStored(t.lastFailureClass),
        attempts: larger(t.attempts),
        costUnits: added(t.costUnits),
        steps: larger(t.steps),
        updatedAt: larger(t.updatedAt),
      },
    });
}

/** Counts one more occurrence of a failure signature; the statement returns the count after it. */
export function countFailureSignature(
  db: DrizzleD1Database,
  teamId: string,
  signature: NonNullable<TaskSignalWrite["signature"]>,
  at: number,
) {
  const f = failureSignatures;
  return db
    .insert(failureSignatures)
    .values({
      teamId,
      signature: signature.hash,
      count: 1,
      taskKey: signature.taskKey,
      reason: signature.reason,
      exitCodeBucket: signature.exitCodeBucket,
      firstSeenAt: at,
      lastSeenAt: at,
    })
    .onConflictDoUpdate({
      target: [f.teamId, f.signature],
      set: { count: sql`${f.count} + 1`, lastSeenAt: larger(f.lastSeenAt) },
    })
    .returning({ count: f.count });
}

/** A run's staged task rows, by task id. */
export function stagedTasksQuery(db: DrizzleD1Database, teamId: string, runId: string): Promise<StagedTaskRow[]> {
  const t = runTaskOutcomes;
  return db
    .select({
      task_id: t.taskId,
      skill: t.skill,
      context: t.context,
      succeeded: t.succeeded,
      failures: t.failures,
      blocks: t.blocks,
      first_failure_class: t.firstFailureClass,
      last_failure_class: t.lastFailureClass,
      attempts: t.attempts,
      cost_units: t.costUnits,
      steps: t.steps,
    })
    .from(t)
    .where(and(eq(t.teamId, teamId), eq(t.runId, runId)))
    .orderBy(asc(t.taskId));
}

/** Drops a run's staged rows once the run is learned (in the batch that learns it). */
export function dropStagedTasksStatement(db: DrizzleD1Database, teamId: string, runId: string) {
  return db.delete(runTaskOutcomes).where(and(eq(runTaskOutcomes.teamId, teamId), eq(runTaskOutcomes.runId, runId)));
}

/** Pruning of staged task outcomes last touched before `before`, for the retention sweep. */
export function pruneStagedTasksStatement(db: DrizzleD1Database, before: number) {
  return db.delete(runTaskOutcomes).where(lt(runTaskOutcomes.updatedAt, before));
}
