// Internal event bodies the learning and events tests deliver (run.completed, task events), for workerd and Node alike.

export const DAY = 86_400_000;

export type TaskSpec = {
  skill: string;
  outcome: "success" | "failure";
  failure_class?: string;
  failure_classes?: string[];
  attempts?: number;
  cost_units?: number;
  steps?: number;
  context?: string;
};

export const runCompleted = (
  team: string,
  run: string,
  tasks: TaskSpec[],
  at: number,
  eventId = `rc-${team}-${run}`,
) => ({
  event_id: eventId,
  type: "run.completed",
  team_id: team,
  run_id: run,
  occurred_at: at,
  tasks,
});

export const taskEvent = (
  type: "task.failed" | "task.blocked" | "task.completed",
  team: string,
  run: string,
  task: string,
  eventId: string,
  extra: Record<string, unknown> = {},
) => ({ event_id: eventId, type, team_id: team, run_id: run, task_id: task, occurred_at: 1, ...extra });
