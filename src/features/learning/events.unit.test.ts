// Normalising queued task/run events from both producers, W4 aggregation, retry evidence, YARLI memory plans.
import { describe, expect, it } from "vitest";
import { InternalEvent } from "../../../contracts/internal-events";
import {
  retryObservations,
  runCompletionOf,
  skillTotals,
  stagedToOutcome,
  type TaskOutcome,
  type TaskSignal,
  taskSignalOf,
} from "./events";
import { planTaskMemory } from "./task-memory";

/** The consumer's one parse (the internal-event union), then learning's reading of the typed event. */
function parseTaskSignal(body: unknown) {
  const e = InternalEvent.safeParse(body);
  if (!e.success) return null;
  const d = e.data;
  if (d.type !== "task.failed" && d.type !== "task.blocked" && d.type !== "task.completed") throw new Error(d.type);
  return taskSignalOf(d);
}
function parseRunCompletion(body: unknown) {
  const e = InternalEvent.parse(body);
  if (e.type !== "run.completed") throw new Error(e.type);
  return runCompletionOf(e);
}

describe("parseTaskSignal", () => {
  it("reads a remote agent's task.failed", () => {
    const s = parseTaskSignal({
      event_id: "api:t:e1",
      type: "task.failed",
      team_id: "t",
      run_id: "r1",
      task_id: "k1",
      task_key: "build:unit",
      project_id: "web",
      reason: "test_failure",
      exit_code_bucket: "exit_1",
      skill: "code.test",
      cost_units: 12,
      occurred_at: 5,
    });
    expect(s).toMatchObject({
      taskKey: "build:unit",
      projectId: "web",
      reason: "test_failure",
      exitCodeBucket: "exit_1",
      costUnits: 12,
      occurredAt: 5,
    });
  });

  it("reads RunDO's task.failed: key from the order, reason from the failure class, cost from tokens", () => {
    const s = parseTaskSignal({
      event_id: "evt_run_9",
      type: "task.failed",
      team_id: "t",
      run_id: "run_1",
      seq: 9,
      occurred_at: 7,
      order_id: "ord_1",
      task_id: "task_1",
      skill: null,
      steps: 2,
      outcome: "ERROR",
      failure_class: "tool_error",
      tokens: { in: 30, out: 12 },
      attempt: 2,
      next: "retry",
    });
    expect(s).toMatchObject({ taskKey: "ord_1", reason: "tool_error", skill: null, costUnits: 42, attempt: 2 });
  });

  it("refuses a body without task_id or team_id, or with junk in a field it names; reads absent fields as null", () => {
    const base = { event_id: "e", type: "task.blocked", team_id: "t", run_id: "r", occurred_at: 3 };
    expect(parseTaskSignal({ ...base, task_id: undefined })).toBeNull();
    expect(parseTaskSignal({ ...base, team_id: undefined, task_id: "k" })).toBeNull();
    expect(parseTaskSignal({ ...base, task_id: "k", cost_units: "lots" })).toBeNull();
    expect(parseTaskSignal({ ...base, task_id: "k", steps: -1 })).toBeNull();
    const s = parseTaskSignal({ ...base, task_id: "k" });
    expect(s).toMatchObject({ costUnits: 0, steps: null, attempt: null, taskKey: "k", occurredAt: 3 });
  });
});

/** An order as the run's run.completed lists it (every field, as the Durable Object sends it). */
const order = (order_id: string, task_id: string, skill: string, status: string, attempts: number) => ({
  order_id,
  task_id,
  skill,
  status,
  attempts,
  outcome: null,
  failure_class: null,
  failure_classes: [],
});

describe("parseRunCompletion", () => {
  it("reads RunDO's orders: COMPLETE+PASS succeeds, DEAD_LETTER fails, others carry no signal; tokens by attempts", () => {
    const run = parseRunCompletion({
      event_id: "evt_run_20",
      type: "run.completed",
      team_id: "t",
      run_id: "run_1",
      occurred_at: 8,
      seq: 20,
      outcome: "COMPLETE",
      skills: ["a", "b"],
      tokens: { in: 300, out: 100 },
      orders: [
        { ...order("o1", "t1", "a", "COMPLETE", 1), outcome: "PASS" },
        {
          ...order("o2", "t2", "b", "DEAD_LETTER", 3),
          outcome: "ERROR",
          failure_class: "tool_error",
          failure_classes: ["tool_error"],
        },
        order("o3", "t3", "a", "SKIPPED", 0),
      ],
    });
    expect(run?.tasks).toEqual([
      {
        taskId: "t1",
        skill: "a",
        context: null,
        success: true,
        failureClasses: [],
        attempts: 1,
        costUnits: 100,
        steps: 1,
      },
      {
        taskId: "t2",
        skill: "b",
        context: null,
        success: false,
        failureClasses: ["tool_error"],
        attempts: 3,
        costUnits: 300,
        steps: 3,
      },
      {
        taskId: "t3",
        skill: "a",
        context: null,
        success: null,
        failureClasses: [],
        attempts: 0,
        costUnits: 0,
        steps: 0,
      },
    ]);
  });

  it("reads a remote run with per-task outcomes, or with one skill, or with none (use the staged tasks)", () => {
    const base = { event_id: "e", type: "run.completed", team_id: "t", run_id: "r", occurred_at: 4 };
    expect(
      parseRunCompletion({ ...base, tasks: [{ skill: "s", outcome: "failure", failure_class: "vibe_fail" }] })
        ?.tasks?.[0],
    ).toMatchObject({ skill: "s", success: false, failureClasses: ["vibe_fail"], attempts: 1 });
    expect(parseRunCompletion({ ...base, skill: "s", outcome: "success", cost_units: 9 })?.tasks).toEqual([
      {
        taskId: null,
        skill: "s",
        context: null,
        success: true,
        failureClasses: [],
        attempts: 1,
        costUnits: 9,
        steps: 1,
      },
    ]);
    expect(parseRunCompletion(base)).toMatchObject({ tasks: null, occurredAt: 4 });
  });
});

describe("skillTotals (W4) and retryObservations", () => {
  const task = (over: Partial<TaskOutcome>): TaskOutcome => ({
    taskId: "t",
    skill: "s",
    context: null,
    success: true,
    failureClasses: [],
    attempts: 1,
    costUnits: 10,
    steps: 1,
    ...over,
  });

  it("folds every task of a skill into one outcome: a failure anywhere fails the skill", () => {
    const totals = skillTotals([
      task({ skill: "b" }),
      task({ skill: "a", costUnits: 5 }),
      task({ skill: "a", success: false, failureClasses: ["x", "y"], costUnits: 7, steps: 2 }),
      task({ skill: "a", success: false, failureClasses: ["z"] }),
      task({ skill: null }),
      task({ skill: "c", success: null }),
    ]);
    expect(totals).toEqual([
      { skill: "a", context: null, success: false, failureClass: "y", costUnits: 22, steps: 4 },
      { skill: "b", context: null, success: true, failureClass: null, costUnits: 10, steps: 1 },
    ]);
  });

  it("counts recovered and exhausted tasks by the first class they failed with", () => {
    expect(
      retryObservations([
        task({ failureClasses: ["vibe_fail"], attempts: 3 }),
        task({ failureClasses: ["vibe_fail", "phase_timeout"], success: false, attempts: 3 }),
        task({ failureClasses: ["phase_timeout"], attempts: 2 }),
        task({ failureClasses: [] }),
      ]),
    ).toEqual([
      { failureClass: "phase_timeout", recovered: 1, exhausted: 0, recoveryAttempts: 2 },
      { failureClass: "vibe_fail", recovered: 1, exhausted: 1, recoveryAttempts: 3 },
    ]);
  });

  it("turns staged rows into outcomes", () => {
    expect(
      stagedToOutcome({
        task_id: "k",
        skill: "s",
        context: null,
        succeeded: 1,
        failures: 2,
        blocks: 0,
        first_failure_class: "a",
        last_failure_class: "b",
        attempts: 0,
        cost_units: 3,
        steps: 4,
      }),
    ).toEqual({
      taskId: "k",
      skill: "s",
      context: null,
      success: true,
      failureClasses: ["a", "b"],
      attempts: 3,
      costUnits: 3,
      steps: 4,
    });
  });
});

describe("planTaskMemory (YARLI storage triggers)", () => {
  const signal = (over: Partial<TaskSignal>): TaskSignal => ({
    eventId: "e1",
    type: "task.failed",
    teamId: "t",
    runId: "r1",
    taskId: "k1",
    taskKey: "build:unit",
    projectId: "web",
    reason: "test_failure",
    exitCodeBucket: "exit_1",
    skill: null,
    context: null,
    failureClass: null,
    attempt: 1,
    costUnits: 0,
    steps: null,
    detail: "parser tests\nfailed",
    occurredAt: 1,
    ...over,
  });

  it("stores a failed task as a short semantic memory in its project with the YARLI metadata", () => {
    expect(planTaskMemory(signal({}), 1, "fp")).toEqual({
      namespace: "team/t/project/web",
      class: "semantic",
      text: "task build:unit failed; reason test_failure; exit exit_1. parser tests failed",
      tags: ["task.failed", "test_failure"],
      metadata: {
        run_id: "r1",
        task_id: "k1",
        event_id: "e1",
        reason: "test_failure",
        task_key: "build:unit",
        fingerprint: "fp",
        exit_code_bucket: "exit_1",
      },
    });
  });

  it("stores a blocked task as an episodic memory of its run", () => {
    expect(planTaskMemory(signal({ type: "task.blocked", reason: "gate" }), 1, "fp")).toMatchObject({
      namespace: "team/t/run/r1",
      class: "episodic",
    });
  });

  it("keeps a governance failure out of semantic memory until its signature recurs a third time", () => {
    const s = signal({ reason: "budget_exceeded" });
    expect(planTaskMemory(s, 1, "fp")).toBeNull();
    expect(planTaskMemory(s, 2, "fp")).toBeNull();
    expect(planTaskMemory(s, 3, "fp")).toMatchObject({
      class: "semantic",
      tags: expect.arrayContaining(["governance"]),
    });
    expect(planTaskMemory(s, 4, "fp")).toBeNull();
  });

  it("caps the detail and leaves completions alone", () => {
    expect(planTaskMemory(signal({ detail: "x".repeat(600) }), 1, "fp")?.text.length).toBeLessThan(280);
    expect(planTaskMemory(signal({ type: "task.completed" }), 1, "fp")).toBeNull();
  });
});
