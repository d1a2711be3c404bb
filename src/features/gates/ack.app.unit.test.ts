// Acknowledging an open gate over HTTP (POST /v1/gates/:gate_id/ack) and what it does to the escalation ladder:
// the first acknowledgement stays, a decided gate answers 409, both are audited, an acknowledged gate is not pinged.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeGateTools } from "../../../test/node-d1/gate-tools";
import { NODE_SLACK_VARS } from "../../../test/node-d1/slack";
import type { SlackOutboxMessage } from "../slack/store/slack-store-port";

const helpers = await nodeHelpers({ vars: NODE_SLACK_VARS });
const { call, depsWith, drainAll, startRun, teamTokens, token } = helpers;
const { audited, deliver, installSlack } = nodeGateTools(helpers);

const ack = (tok: string, gateId: string) => call("POST", `/v1/gates/${gateId}/ack`, { token: tok });

async function openHardGate(teamId: string, opId = "op-1") {
  const t = await teamTokens(teamId);
  const run = await startRun(t.worker);
  const g = await call("POST", `/v1/runs/${run.run_id}/gates`, {
    token: t.worker,
    body: { policy_key: "wrong_value", op_id: opId },
  });
  expect(g.json).toMatchObject({ kind: "hard", status: "pending" });
  await drainAll(); // the D1 gate index the acknowledgement writes to
  return { t, runId: run.run_id, gateId: g.json.gate_id as string };
}

describe("POST /v1/gates/:gate_id/ack", () => {
  it("records who acknowledged and when; a second acknowledgement answers the first; it is audited once", async () => {
    const { t, runId, gateId } = await openHardGate("ack-a");
    const first = await ack(t.approver, gateId);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ gate_id: gateId, run_id: runId, status: "pending", acked_by: "approver-ack-a" });
    expect(first.json.acked_at).toBeGreaterThan(0);
    const again = await ack(t.admin, gateId);
    expect(again.json).toEqual(first.json);
    expect(
      (await audited("ack-a", "gate.acknowledged")).map(({ actor, subject_id }) => ({ actor, subject_id })),
    ).toEqual([{ actor: "approver-ack-a", subject_id: gateId }]);
    // the gate is still open: acknowledging is not deciding
    const view = await call("GET", `/v1/runs/${runId}`, { token: t.worker });
    expect(view.json.gates[0].status).toBe("pending");
  });

  it("answers 409 for a decided gate, 404 for an unknown or another team's gate, 403 without approvals:decide", async () => {
    const { t, gateId } = await openHardGate("ack-b");
    const decided = await call("POST", `/v1/gates/${gateId}/decision`, {
      token: t.approver,
      body: { decision: "deny", note: "wrong total" },
    });
    expect(decided.status).toBe(200);
    await drainAll();
    const late = await ack(t.approver, gateId);
    expect(late.status).toBe(409);
    expect(late.json.error.message).toMatch(/already decided \(denied\)/);
    expect((await ack(t.approver, "gate_nope")).status).toBe(404);
    const other = await teamTokens("ack-other");
    expect((await ack(other.approver, gateId)).status).toBe(404);
    const reader = await call("POST", `/v1/gates/${gateId}/ack`, {
      token: await token("ack-b", ["runs:read"], { sub: "r" }),
    });
    expect(reader.status).toBe(403);
    expect((await audited("ack-b", "gate.acknowledged")).filter((e) => e.subject_id === gateId).length).toEqual(0);
  });
});

describe("the escalation ladder and acknowledgements", () => {
  it("writes every escalation to audit_log and pings only gates nobody acknowledged", async () => {
    await installSlack("ack-c");
    const quiet = await openHardGate("ack-c", "op-quiet");
    const loud = await call("POST", `/v1/runs/${quiet.runId}/gates`, {
      token: quiet.t.worker,
      body: { policy_key: "wrong_value", op_id: "op-loud" },
    });
    await drainAll();
    expect((await ack(quiet.t.approver, quiet.gateId)).status).toBe(200);
    const sent: SlackOutboxMessage[] = [];
    const deps = depsWith({ slackOutbox: { send: async (m) => void sent.push(...m) } });
    const escalated = (gateId: string, n: number) => ({
      event_id: `esc-${gateId}-${n}`,
      type: "gate.escalated",
      team_id: "ack-c",
      run_id: quiet.runId,
      occurred_at: Date.now(),
      gate_id: gateId,
      op_id: "op",
      policy_key: "wrong_value",
      kind: "hard",
      rule_id: null,
      seq: 100 + n,
      opened_at: 0,
      due_at: Date.now(),
      level: 1,
    });
    const events = [escalated(quiet.gateId, 1), escalated(loud.json.gate_id, 1)];
    await deliver(deps, events);
    await deliver(deps, events); // redelivered: still one audit row each
    const pinged = sent.map((m) => (m.kind === "post" ? m.key : "")).filter((k) => k.includes("esc"));
    expect(pinged.every((k) => !k.includes(quiet.gateId))).toBe(true);
    expect(pinged.some((k) => k.includes(loud.json.gate_id))).toBe(true);
    // (these events' rows only, by their audit ids)
    const ids = events.map((e) => `aud_esc_${e.event_id}`);
    const audit = (await audited("ack-c", "gate.escalated")).filter((e) => ids.includes(e.id));
    expect(audit).toHaveLength(2);
    const byGate = new Map(audit.map((a) => [a.subject_id, a.metadata]));
    expect(byGate.get(quiet.gateId)).toMatchObject({ pinged: false, acked_by: "approver-ack-c", level: 1 });
    expect(byGate.get(loud.json.gate_id)).toMatchObject({ pinged: true, level: 1 });
  });
});
