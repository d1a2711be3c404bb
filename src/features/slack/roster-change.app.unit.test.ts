// Slack installation changes after the first install wait behind a slack_channel_change hard gate on the team's
// control run (applied on approval, dropped on denial); per-kind roster roles decide who may click what. In Node, over
// the D1 and Durable Object stand-ins; rows read through the Slack and runs tables (test/node-d1/table-rows.ts).
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { approvalEvents, tableRows } from "../../../test/node-d1/table-rows";
import { CHANNELS, interactionBody } from "../../../test/slack-bodies";
import { auditLog } from "../audit/store/tables";
import { slackApprovers, slackChangeRequests, slackInstallations } from "./store/tables";

const h = await nodeSlackHelpers();
const { call, installSlack, recordingApp, signedRequest, startRun, token } = h;
const recordRows = tableRows(h);

const roster = async (teamId: string) =>
  (
    await recordRows(slackApprovers, eq(slackApprovers.teamId, teamId), {
      slack_user_id: slackApprovers.slackUserId,
      role: slackApprovers.role,
    })
  ).sort((a, b) => a.slack_user_id.localeCompare(b.slack_user_id));
/** the team's audit actions matching a LIKE pattern, with their metadata, in the order they were written */
const auditRows = (teamId: string, action: string) =>
  recordRows(auditLog, and(eq(auditLog.teamId, teamId), like(auditLog.action, action)), {
    action: auditLog.action,
    metadata: auditLog.metadata,
  });

const change = async (teamId: string, workspace: string, extra: Record<string, unknown> = {}) =>
  call("PUT", "/v1/slack/installation", {
    token: await token(teamId, ["policy:admin"], { sub: "admin" }),
    body: {
      workspace_id: workspace,
      bot_token: "xoxb-3333-4444-newtokenvalue",
      channels: { ...CHANNELS, approvals: "C0NEWAPPR" },
      approvers: [
        { slack_user_id: "U0ALICE", subject: "alice", role: "admin" },
        { slack_user_id: "U0CAROL", subject: "carol", role: "approver" },
      ],
      ...extra,
    },
  });

describe("slack_channel_change", () => {
  it("keeps a roster/channel change pending behind a hard gate and applies it when the gate is approved", async () => {
    await installSlack("rc-a", "T0RCA");
    const res = await change("rc-a", "T0RCA");
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: "pending", version: 1, gate_id: expect.any(String) });
    // nothing applied yet
    expect((await roster("rc-a")).map((r) => r.slack_user_id)).toEqual(["U0ALICE", "U0BOB", "U0WORKER"]);
    const gate = await call("GET", `/v1/runs/${res.json.run_id}/gates/${res.json.gate_id}`, {
      token: await token("rc-a", undefined, { sub: "bob" }),
    });
    expect(gate.json).toMatchObject({ kind: "hard", policy_key: "slack_channel_change", status: "pending" });
    const approved = await call("POST", "/v1/approvals", {
      token: await token("rc-a", undefined, { sub: "bob" }),
      body: {
        run_id: res.json.run_id,
        op_id: res.json.op_id,
        policy_key: "slack_channel_change",
        decision: "approve_retry",
        note: "new approvals channel",
      },
    });
    expect(approved.status).toBe(200);
    expect(await roster("rc-a")).toEqual([
      { slack_user_id: "U0ALICE", role: "admin" },
      { slack_user_id: "U0CAROL", role: "approver" },
    ]);
    const [inst] = await recordRows(slackInstallations, eq(slackInstallations.teamId, "rc-a"), {
      channels: slackInstallations.channels,
      bot_token_enc: slackInstallations.botTokenEnc,
    });
    expect(inst?.channels.approvals).toBe("C0NEWAPPR");
    expect(inst?.bot_token_enc).not.toContain("xoxb");
    const audit = await auditRows("rc-a", "policy.slack.%");
    expect(audit.map((a) => a.action)).toEqual(["policy.slack.proposed", "policy.slack.activated"]);
  });

  it("drops a change whose gate is denied, and nobody approves their own change", async () => {
    await installSlack("rc-b", "T0RCB");
    const res = await change("rc-b", "T0RCB");
    expect(res.status).toBe(202);
    const mine = await call("POST", "/v1/approvals", {
      token: await token("rc-b", undefined, { sub: "admin" }),
      body: {
        run_id: res.json.run_id,
        op_id: res.json.op_id,
        policy_key: "slack_channel_change",
        decision: "approve_retry",
        note: "self",
      },
    });
    expect(mine.status).toBe(403);
    const denied = await call("POST", "/v1/approvals", {
      token: await token("rc-b", undefined, { sub: "bob" }),
      body: {
        run_id: res.json.run_id,
        op_id: res.json.op_id,
        policy_key: "slack_channel_change",
        decision: "deny",
        note: "no",
      },
    });
    expect(denied.status).toBe(200);
    expect((await roster("rc-b")).map((r) => r.slack_user_id)).toEqual(["U0ALICE", "U0BOB", "U0WORKER"]);
    const [req] = await recordRows(slackChangeRequests, eq(slackChangeRequests.teamId, "rc-b"));
    expect(req?.status).toBe("pending");
  });

  it("refuses a run-bound token's change and stores nothing", async () => {
    await installSlack("rc-c", "T0RCC");
    const bound = await call("PUT", "/v1/slack/installation", {
      token: await token("rc-c", ["policy:admin"], { sub: "admin", runId: "run_x" }),
      body: {
        workspace_id: "T0RCC",
        bot_token: "xoxb-1-2-abcd",
        channels: CHANNELS,
        approvers: [{ slack_user_id: "U1", subject: "x", role: "admin" }],
      },
    });
    expect(bound.status).toBe(403);
    expect(await recordRows(slackChangeRequests, eq(slackChangeRequests.teamId, "rc-c"))).toEqual([]);
  });
});

describe("per-kind roster roles", () => {
  const denyClick = (workspace: string, g: Record<string, string>, user: string) => ({
    type: "block_actions",
    team: { id: workspace },
    user: { id: user },
    trigger_id: `trig-${user}`,
    response_url: "https://hooks.slack.com/actions/T/1/x",
    actions: [{ action_id: "gate_deny", action_ts: `17000000${user.length}.1`, value: JSON.stringify(g) }],
  });

  it("refuses an approver's click on a hard gate when hard gates need an admin, and lets the admin go on", async () => {
    await installSlack("rr-a", "T0RRA", { roles: { hard: "admin" } });
    const worker = await token("rr-a", ["runs:write", "runs:read"], { sub: "worker" });
    const run = await startRun(worker);
    const opened = await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: worker,
      body: { policy_key: "wrong_value", op_id: "op-1", context: {} },
    });
    expect(opened.json.kind).toBe("hard");
    const g = {
      run_id: run.run_id,
      op_id: "op-1",
      policy_key: "wrong_value",
      kind: "hard",
      gate_id: opened.json.gate_id,
    };
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(denyClick("T0RRA", g, "U0ALICE"))));
    expect(app.sent).toEqual([
      expect.objectContaining({ text: expect.stringMatching(/role \(approver\) cannot decide this hard gate/) }),
    ]);
    const audit = await auditRows("rr-a", "slack.approval_refused");
    expect(audit[0]?.metadata?.why).toMatch(/role approver may not decide hard gates/);
    const none = await recordRows(approvalEvents, eq(approvalEvents.runId, run.run_id));
    expect(none).toEqual([]);
    // the admin's Deny opens the note modal (every hard-gate decision carries a note), no refusal
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(denyClick("T0RRA", g, "U0BOB"))));
    expect(app.apiCalls.map((c) => c.method)).toEqual(["views.open"]);
    expect(app.sent).toHaveLength(1);
  });
});
