// Task event v1: YARLI-style task and run events a remote agent posts to POST /v1/events (team_id comes from the token).
import { z } from "zod";

export const TASK_EVENT_TYPES = ["task.failed", "task.blocked", "task.completed", "run.completed"] as const;
export const TASK_OUTCOMES = ["success", "failure"] as const;

const id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[!-~]+$/, "printable ASCII without spaces");
/** a short, stable bucket name (reason, exit-code bucket, failure class) — never a raw log line */
const bucket = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "a short bucket name: letters, digits, _ . : -");
const skill = z.string().min(1).max(128);
const costUnits = z.number().min(0).max(1e12);

/** One task's outcome inside a run.completed event. */
export const RunTaskOutcomeV1 = z.strictObject({
  task_id: id.optional(),
  skill,
  outcome: z.enum(TASK_OUTCOMES),
  /** the class of the task's last failure */
  failure_class: bucket.optional(),
  /** every failure class the task went through, oldest first */
  failure_classes: z.array(bucket).max(32).optional(),
  attempts: z.int().min(1).max(10_000).optional(),
  cost_units: costUnits.optional(),
  steps: z.int().min(0).max(1_000_000).optional(),
  /** the query type; hashed into the entry's context_hash */
  context: z.string().max(256).optional(),
});
export type RunTaskOutcomeV1 = z.infer<typeof RunTaskOutcomeV1>;

export const TaskEventV1 = z
  .strictObject({
    schema: z.literal("warden.task_event.v1").optional(),
    event_id: id,
    type: z.enum(TASK_EVENT_TYPES),
    run_id: id,
    task_id: id.optional(),
    task_key: z.string().min(1).max(256).optional(),
    project_id: id.optional(),
    /** reason bucket (YARLI): e.g. test_failure, policy_denied, budget_exceeded, gate_failed */
    reason: bucket.optional(),
    exit_code_bucket: bucket.optional(),
    skill: skill.optional(),
    context: z.string().max(256).optional(),
    /** run.completed with one skill, or a task's outcome */
    outcome: z.enum(TASK_OUTCOMES).optional(),
    failure_class: bucket.optional(),
    /** 1-indexed attempt of the task this event reports */
    attempt: z.int().min(1).max(10_000).optional(),
    cost_units: costUnits.optional(),
    steps: z.int().min(0).max(1_000_000).optional(),
    /** minimal human detail for the memory summary (no logs, no secrets) */
    detail: z.string().max(500).optional(),
    /** run.completed: per-task outcomes; without it, the task.* events staged for the run are used */
    tasks: z.array(RunTaskOutcomeV1).max(500).optional(),
    occurred_at: z.union([z.iso.datetime({ offset: true }), z.int().min(0)]).optional(),
  })
  .superRefine((e, ctx) => {
    if (e.type !== "run.completed" && e.task_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["task_id"], message: `${e.type} needs task_id` });
    }
    if (e.type !== "run.completed" && e.tasks !== undefined) {
      ctx.addIssue({ code: "custom", path: ["tasks"], message: "tasks belongs to run.completed only" });
    }
    if (e.type === "run.completed" && e.outcome !== undefined && e.skill === undefined) {
      ctx.addIssue({ code: "custom", path: ["skill"], message: "run.completed with an outcome needs its skill" });
    }
  })
  .meta({
    id: "TaskEventV1",
    title: "Task event v1",
    description: "YARLI-style task/run event; the learning consumer applies it once per event_id.",
    example: {
      event_id: "evt-7f3a-0001",
      type: "task.failed",
      run_id: "run-42",
      task_id: "task-3",
      task_key: "build:unit-tests",
      project_id: "proj-web",
      reason: "test_failure",
      exit_code_bucket: "exit_1",
      skill: "code.test",
      failure_class: "vibe_fail",
      attempt: 1,
      cost_units: 1200,
      steps: 4,
      detail: "unit tests failed in the parser module",
    },
  });
export type TaskEventV1 = z.infer<typeof TaskEventV1>;
