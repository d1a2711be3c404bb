// Pure normalisation of parsed task/run events (from POST /v1/events or from RunDO) into what learning applies.
import {
  type RunCompletedEvent,
  TASK_SIGNAL_EVENT_TYPES,
  type TaskSignalEvent,
} from "../../../contracts/internal-events";
import type { RetryObservation } from "./policy-memory";
import type { StagedTaskRow, TaskSignalWrite } from "./store/learning-store-port";

export const TASK_SIGNAL_TYPES = TASK_SIGNAL_EVENT_TYPES;
export type TaskSignalType = (typeof TASK_SIGNAL_TYPES)[number];

/** A parsed task.* event: what is staged for learning (TaskSignalWrite) plus the fields of its failure signature. */
export type TaskSignal = Omit<TaskSignalWrite, "type" | "signature"> & {
  type: TaskSignalType;
  taskKey: string;
  projectId: string | null;
  reason: string | null;
  exitCodeBucket: string | null;
  detail: string | null;
};

const tokenSum = (t: { in?: number; out?: number } | undefined) => (t ? (t.in ?? 0) + (t.out ?? 0) : 0);

/** task.failed / task.blocked / task.completed from either producer (parsed by the consumer) as learning stages it. */
export function taskSignalOf(e: TaskSignalEvent): TaskSignal {
  const failureClass = e.failure_class ?? null;
  return {
    eventId: e.event_id,
    type: e.type,
    teamId: e.team_id,
    runId: e.run_id,
    taskId: e.task_id,
    taskKey: e.task_key ?? e.order_id ?? e.task_id,
    projectId: e.project_id ?? null,
    // RunDO sends failure_class (and for blocks a reason such as gate / replan); remote agents a reason bucket
    reason: e.reason ?? failureClass ?? (e.outcome ? e.outcome.toLowerCase() : null),
    exitCodeBucket: e.exit_code_bucket ?? null,
    skill: e.skill ?? null,
    context: e.context ?? null,
    failureClass,
    attempt: e.attempt ?? null,
    costUnits: e.cost_units ?? tokenSum(e.tokens),
    steps: e.steps ?? null,
    detail: e.detail ?? null,
    occurredAt: e.occurred_at,
  };
}

// ---- run completion ------------------------------------------------------------------------

/** One task as learning sees it; success null = no signal (skipped, revoked, still open). */
export type TaskOutcome = {
  taskId: string | null;
  skill: string | null;
  context: string | null;
  success: boolean | null;
  failureClasses: string[];
  attempts: number;
  costUnits: number;
  steps: number;
};

export type RunCompletion = {
  eventId: string;
  teamId: string;
  runId: string;
  occurredAt: number;
  /** null: the event lists no tasks; learning reads the task.* events staged for the run */
  tasks: TaskOutcome[] | null;
};

const SUCCESS_WORDS = new Set(["success", "pass", "passed", "complete", "completed", "succeeded"]);

/** RunDO order → outcome: COMPLETE+PASS succeeded; DEAD_LETTER, DECLINE or ERROR failed; others carry no signal. */
function orderSuccess(status: string, outcome: string | null | undefined): boolean | null {
  if (status === "COMPLETE") return outcome === undefined || outcome === null || outcome === "PASS";
  if (status === "DEAD_LETTER") return false;
  return null;
}

type RunCompletedBody = RunCompletedEvent;

/** The run's own task list (agents that report per task). */
function listedTasks(tasks: NonNullable<RunCompletedBody["tasks"]>): TaskOutcome[] {
  return tasks.map((t) => ({
    taskId: t.task_id ?? null,
    skill: t.skill,
    context: t.context ?? null,
    success: t.outcome === "success",
    failureClasses: t.failure_classes ?? (t.failure_class ? [t.failure_class] : []),
    attempts: t.attempts ?? 1,
    costUnits: t.cost_units ?? 0,
    steps: t.steps ?? t.attempts ?? 1,
  }));
}

/** RunDO's orders; the run reports tokens per run, so each order gets its share by attempts. */
function orderTasks(
  orders: NonNullable<RunCompletedBody["orders"]>,
  tokens: RunCompletedBody["tokens"],
): TaskOutcome[] {
  const totalTokens = tokenSum(tokens);
  const totalAttempts = orders.reduce((s, o) => s + (o.attempts ?? 0), 0);
  return orders.map((o) => {
    const attempts = o.attempts ?? 0;
    return {
      taskId: o.task_id ?? o.order_id ?? null,
      skill: o.skill ?? null,
      context: null,
      success: orderSuccess(o.status, o.outcome),
      failureClasses: o.failure_classes ?? (o.failure_class ? [o.failure_class] : []),
      attempts,
      costUnits: totalAttempts > 0 ? (totalTokens * attempts) / totalAttempts : 0,
      steps: attempts,
    };
  });
}

/** A run that names one skill and an outcome word: one task. */
function summaryTask(e: RunCompletedBody & { skill: string; outcome: string }): TaskOutcome {
  return {
    taskId: null,
    skill: e.skill,
    context: e.context ?? null,
    success: SUCCESS_WORDS.has(e.outcome.toLowerCase()),
    failureClasses: e.failure_class ? [e.failure_class] : [],
    attempts: 1,
    costUnits: e.cost_units ?? 0,
    steps: e.steps ?? 1,
  };
}

/** A run.completed event → its tasks, from the first of: a task list, RunDO's orders, one skill with an outcome. */
export function runCompletionOf(e: RunCompletedEvent): RunCompletion {
  const base = { eventId: e.event_id, teamId: e.team_id, runId: e.run_id, occurredAt: e.occurred_at };
  if (e.tasks) return { ...base, tasks: listedTasks(e.tasks) };
  if (e.orders) return { ...base, tasks: orderTasks(e.orders, e.tokens) };
  if (e.skill && e.outcome) return { ...base, tasks: [summaryTask({ ...e, skill: e.skill, outcome: e.outcome })] };
  return { ...base, tasks: null };
}

/** A staged run_task_outcome row (what the task.* events of a run added up to) as one task outcome. */
export function stagedToOutcome(row: StagedTaskRow): TaskOutcome {
  const classes = [row.first_failure_class, row.last_failure_class].filter((c): c is string => c !== null);
  return {
    taskId: row.task_id,
    skill: row.skill,
    context: row.context,
    success: row.succeeded > 0 ? true : row.failures > 0 || row.blocks > 0 ? false : null,
    failureClasses: [...new Set(classes)],
    attempts: Math.max(row.attempts, row.failures + row.succeeded, 1),
    costUnits: row.cost_units,
    steps: row.steps,
  };
}

export type SkillTotals = {
  skill: string;
  context: string | null;
  success: boolean;
  failureClass: string | null;
  costUnits: number;
  steps: number;
};

/**
 * W4: one outcome per skill per run — it succeeded when every task of it succeeded; otherwise it failed with the
 * last failure class of its first failed task. Costs and steps add up; the context is the first task's. By skill.
 */
export function skillTotals(tasks: TaskOutcome[]): SkillTotals[] {
  const bySkill = new Map<string, SkillTotals>();
  for (const t of tasks) {
    if (t.skill === null || t.success === null) continue;
    const cur = bySkill.get(t.skill);
    const failureClass = t.success ? null : (t.failureClasses.at(-1) ?? null);
    if (!cur) {
      bySkill.set(t.skill, {
        skill: t.skill,
        context: t.context,
        success: t.success,
        failureClass,
        costUnits: t.costUnits,
        steps: t.steps,
      });
    } else {
      cur.costUnits += t.costUnits;
      cur.steps += t.steps;
      if (cur.success && !t.success) {
        cur.success = false;
        cur.failureClass = failureClass;
      }
    }
  }
  return [...bySkill.values()].sort((a, b) => (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0));
}

/** Per failure class (the first one a task hit): recovered tasks, exhausted tasks, attempts of the recovered. */
export function retryObservations(tasks: TaskOutcome[]): RetryObservation[] {
  const byClass = new Map<string, RetryObservation>();
  for (const t of tasks) {
    const cls = t.failureClasses[0];
    if (t.success === null || cls === undefined) continue;
    const obs = byClass.get(cls) ?? { failureClass: cls, recovered: 0, exhausted: 0, recoveryAttempts: 0 };
    if (t.success) {
      obs.recovered += 1;
      obs.recoveryAttempts += Math.max(2, t.attempts);
    } else obs.exhausted += 1;
    byClass.set(cls, obs);
  }
  return [...byClass.values()].sort((a, b) => (a.failureClass < b.failureClass ? -1 : 1));
}
