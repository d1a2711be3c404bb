// YARLI hints where agents look: run status and explain-exit carry the failure hints; the observer events are logged.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { addOrder, call, complete, eventLog, lease, startRun, token } = await nodeHelpers();

const team = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}`;
const idsOf = (hints: { id: string }[]) => hints.map((h) => h.id);

async function failOnce(tok: string, runId: string, orderId: string, opId: string) {
  const l = (await lease(tok, runId, orderId)).json;
  return (
    await complete(tok, runId, orderId, {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: opId,
      outcome: "ERROR",
      failure_class: "tool_error",
    })
  ).json;
}

describe("failure hints on the run", () => {
  it("keeps a failed attempt's hints for run status and explain-exit and logs task.observer.memory_hints", async () => {
    const teamId = team("fh");
    const t = await token(teamId);
    const lesson = "tool_error in task-o1: the exporter crashes on empty batches; send a batch size of 1";
    const w = await call("POST", "/v1/memory", {
      token: t,
      body: { namespace: `team/${teamId}/org/lessons`, class: "semantic", text: lesson },
    });
    expect(w.status).toBe(201);
    const run = await startRun(t, { goal: "nightly ledger", skills: ["ledger"] });
    await addOrder(t, run.run_id, "o1");
    const reply = await failOnce(t, run.run_id, "o1", "c1");
    expect(idsOf(reply.hints)).toContain(w.json.id);

    const status = (await call("GET", `/v1/runs/${run.run_id}`, { token: t })).json;
    expect(status.failure_hints).toEqual([
      {
        order_id: "o1",
        task_id: "task-o1",
        op_id: "c1",
        failure_class: "tool_error",
        at: expect.any(Number),
        hints: reply.hints,
      },
    ]);
    const explain = (await call("GET", `/v1/runs/${run.run_id}/explain-exit`, { token: t })).json;
    expect(explain.failure_hints).toEqual(status.failure_hints);

    const observed = (await eventLog(run.run_id)).filter((e) => e.type === "task.observer.memory_hints");
    expect(observed).toHaveLength(1);
    expect(observed[0]).toMatchObject({ order_id: "o1", task_id: "task-o1", op_id: "c1", failure_class: "tool_error" });
    expect(idsOf(observed[0].hints)).toContain(w.json.id);
  });

  it("keeps nothing and logs no observer event when memory has no hints", async () => {
    const t = await token(team("nh"));
    const run = await startRun(t, { goal: "nightly ledger", skills: ["ledger"] });
    await addOrder(t, run.run_id, "o1");
    const reply = await failOnce(t, run.run_id, "o1", "c1");
    expect(reply.hints).toBeUndefined();
    expect((await call("GET", `/v1/runs/${run.run_id}`, { token: t })).json.failure_hints).toEqual([]);
    expect((await call("GET", `/v1/runs/${run.run_id}/explain-exit`, { token: t })).json.failure_hints).toEqual([]);
    const types = (await eventLog(run.run_id)).map((e) => e.type);
    expect(types).toContain("task.failed");
    expect(types.filter((x) => x.includes("observer"))).toEqual([]);
  });
});
