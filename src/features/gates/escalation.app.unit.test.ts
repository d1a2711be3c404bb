// Escalation of a hard gate left open, end to end in Node: the run's alarm, the gate view, the event log, the trace page.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { ESCALATION_AFTER_MS } from "./escalation";

const { call, eventLog, fireAlarm, scheduledAlarm, setClock, startRun, teamTokens } = await nodeHelpers();

describe("hard gate escalation in the run's alarm", () => {
  it("arms the alarm for each level, fires each once, shows them on the gate and the trace, stops once decided", async () => {
    const t = await teamTokens("esc-a");
    const run = await startRun(t.worker);
    const t0 = await setClock(run.run_id, Date.now() + 86_400_000);
    const opened = await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: t.worker,
      body: { op_id: "op-esc", policy_key: "wrong_value", context: {} },
    });
    expect(opened.status).toBe(200);
    expect(opened.json.kind).toBe("hard");
    const gateId = opened.json.gate_id as string;
    const gate = () => call("GET", `/v1/runs/${run.run_id}/gates/${gateId}`, { token: t.worker });
    expect(await scheduledAlarm(run.run_id)).toBe(t0 + ESCALATION_AFTER_MS[1]);

    // 14:59: an early alarm changes nothing
    await setClock(run.run_id, t0 + ESCALATION_AFTER_MS[1] - 1000);
    await fireAlarm(run.run_id);
    expect((await gate()).json.escalations).toBeUndefined();

    await setClock(run.run_id, t0 + ESCALATION_AFTER_MS[1]);
    await fireAlarm(run.run_id);
    expect((await gate()).json.escalations).toEqual([{ level: 1, at: t0 + ESCALATION_AFTER_MS[1] }]);
    expect(await scheduledAlarm(run.run_id)).toBe(t0 + ESCALATION_AFTER_MS[2]);

    await setClock(run.run_id, t0 + ESCALATION_AFTER_MS[2]);
    await fireAlarm(run.run_id);
    await fireAlarm(run.run_id); // at-least-once alarms: a repeat pings nobody twice
    expect((await gate()).json.escalations).toEqual([
      { level: 1, at: t0 + ESCALATION_AFTER_MS[1] },
      { level: 2, at: t0 + ESCALATION_AFTER_MS[2] },
    ]);
    const levels = (await eventLog(run.run_id)).filter((e) => e.type === "gate.escalated").map((e) => e.level);
    expect(levels).toEqual([1, 2]);

    const views = await call("POST", "/v1/views", { token: t.worker, body: { kind: "run", run_id: run.run_id } });
    const page = await call("GET", String(views.json.url).replace(/^https?:\/\/[^/]+/, ""));
    const html = page.text;
    expect(html).toContain("escalation level 1 (approvers re-pinged)");
    expect(html).toContain("escalation level 2 (escalation target)");

    const decided = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: { run_id: run.run_id, op_id: "op-esc", policy_key: "wrong_value", decision: "deny", note: "late" },
    });
    expect(decided.status).toBe(200);
    expect(await scheduledAlarm(run.run_id)).toBeNull();
  });

  it("never escalates a gate decided before 15 minutes", async () => {
    const t = await teamTokens("esc-b");
    const run = await startRun(t.worker);
    const t0 = await setClock(run.run_id, Date.now() + 86_400_000);
    await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: t.worker,
      body: { op_id: "op-esc", policy_key: "wrong_value", context: {} },
    });
    await setClock(run.run_id, t0 + 60_000);
    const decided = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: { run_id: run.run_id, op_id: "op-esc", policy_key: "wrong_value", decision: "deny", note: "no" },
    });
    expect(decided.status).toBe(200);
    await setClock(run.run_id, t0 + ESCALATION_AFTER_MS[2] + 1);
    await fireAlarm(run.run_id);
    expect((await eventLog(run.run_id)).filter((e) => e.type === "gate.escalated")).toEqual([]);
  });
});
