// Slack installation changes after the first install wait behind a slack_channel_change hard gate on the team's
// control run (applied on approval, dropped on denial); per-kind roster roles decide who may click what.
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, readResponse, token } from "../../../test/helpers";
import { rows } from "../../../test/learning";
import { startRun } from "../../../test/run-helpers";
import { CHANNELS, installSlack, interactionBody, signedRequest } from "../../../test/slack";
import { createApp } from "../../app";
import { makeDeps } from "../../deps";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const roster = (teamId: string) =>
  rows<{ slack_user_id: string; role: string }>(
    "SELECT slack_user_id, role FROM slack_approver WHERE team_id = ? ORDER BY slack_user_id",
    teamId,
  );

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
    const [inst] = await rows<{ channels: string; bot_token_enc: string }>(
      "SELECT channels, bot_token_enc FROM slack_installation WHERE team_id = 'rc-a'",
    );
    expect(JSON.parse(inst?.channels ?? "{}").approvals).toBe("C0NEWAPPR");
    expect(inst?.bot_token_enc).not.toContain("xoxb");
    const audit = await rows<{ action: string }>(
      "SELECT action FROM audit_log WHERE team_id = 'rc-a' AND action LIKE 'policy.slack.%' ORDER BY created_at",
    );
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
    const [req] = await rows<{ status: string }>("SELECT status FROM slack_change_request WHERE team_id = 'rc-b'");
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
    expect(await rows("SELECT * FROM slack_change_request WHERE team_id = 'rc-c'")).toEqual([]);
  });
});

describe("per-kind roster roles", () => {
  function recordingApp() {
    const sent: SlackOutboxMessage[] = [];
    const opened: string[] = [];
    const deps = makeDeps(env, {
      slackOutbox: { send: async (m) => void sent.push(...m) },
      slackApi: {
        call: async (method) => {
          opened.push(method);
          return { ok: true, body: {} };
        },
        respond: async () => ({ ok: true, body: {} }),
      },
    });
    const app = createApp();
    return {
      sent,
      opened,
      fetch: async (req: Request) => readResponse(await app.fetch(req, { deps }, createExecutionContext())),
    };
  }
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
    const audit = await rows<{ metadata: string }>(
      "SELECT metadata FROM audit_log WHERE team_id = 'rr-a' AND action = 'slack.approval_refused'",
    );
    expect(JSON.parse(audit[0]?.metadata ?? "{}").why).toMatch(/role approver may not decide hard gates/);
    const none = await rows("SELECT * FROM approval_event WHERE run_id = ?", run.run_id);
    expect(none).toEqual([]);
    // the admin's Deny opens the note modal (every hard-gate decision carries a note), no refusal
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(denyClick("T0RRA", g, "U0BOB"))));
    expect(app.opened).toEqual(["views.open"]);
    expect(app.sent).toHaveLength(1);
  });
});
