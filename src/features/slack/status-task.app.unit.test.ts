// `/warden status <task_id>` (in Node, over the D1 and Durable Object stand-ins): a task id finds its run (the team's own tasks only), answered like a run id.
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { commandBody } from "../../../test/slack-bodies";

const { token, addOrder, drain, startRun, installSlack, slackCall } = await nodeSlackHelpers();

const WORKSPACE = "T0STASK";

describe("/warden status <task_id>", () => {
  it("answers a task id with its orders' states and its run's status, steps and trace link", async () => {
    await installSlack("st-task", WORKSPACE);
    const tok = await token("st-task");
    const run = await startRun(tok, { goal: "status by task" });
    await addOrder(tok, run.run_id, "o1");
    await drain(run.run_id);
    const res = await slackCall("/slack/commands", commandBody("status task-o1", "U0ALICE", WORKSPACE));
    expect(res.json.text).toMatch(/^Task `task-o1` \(order `o1` QUEUED\) of run:\n/);
    expect(res.json.text).toContain(`*${run.run_id}*`);
    expect(res.json.text).toContain("status by task");
    expect(res.json.text).toContain(`/runs/${run.run_id}/trace?view=`);
    // a run id answers as before, without the task line
    const byRun = await slackCall("/slack/commands", commandBody(`status ${run.run_id}`, "U0ALICE", WORKSPACE));
    expect(byRun.json.text.startsWith(`*${run.run_id}*`)).toBe(true);
  });

  it("finds no task of another team, and says so for an id that is neither", async () => {
    await installSlack("st-task", WORKSPACE);
    const other = await token("st-task-other");
    const run = await startRun(other);
    await addOrder(other, run.run_id, "secret-order", { task_id: "task-elsewhere" });
    await drain(run.run_id);
    for (const id of ["task-elsewhere", "task-nope"]) {
      const res = await slackCall("/slack/commands", commandBody(`status ${id}`, "U0ALICE", WORKSPACE));
      expect(res.json.text).toBe(`No run or task \`${id}\` for this team.`);
    }
  });
});
