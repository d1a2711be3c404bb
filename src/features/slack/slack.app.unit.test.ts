// The Slack front door in Node, over the D1 and run objects' stand-ins: signed ingress (401 with no side effect),
// url_verification, retries, the installation, slash commands, and card clicks through the run's decide_gate
// (idempotent, roster, race, notes). Rows read through the owner features' tables (test/node-d1/table-rows.ts).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { approvalEvents, runs, tableRows } from "../../../test/node-d1/table-rows";
import {
  CHANNELS,
  commandBody,
  interactionBody,
  noteSubmission,
  openTraceLinkWith,
  WORKSPACE,
} from "../../../test/slack-bodies";
import type { Deps } from "../../deps";
import { auditLog } from "../audit/store/tables";
import type { SlackOutboxMessage } from "./store/slack-store-port";
import { slackInbound, slackInstallations } from "./store/tables";

const h = await nodeSlackHelpers();
const { call, depsWith, installSlack, recordingApp, send, signedRequest, slackCall, startRun, token } = h;
const recordRows = tableRows(h);
const openTraceLink = (text: string) => openTraceLinkWith(call, text);

const inboundCount = async () => (await recordRows(slackInbound, undefined)).length;

describe("Slack ingress signature", () => {
  const event = JSON.stringify({ type: "event_callback", event_id: "Ev1", team_id: WORKSPACE, event: { type: "x" } });
  const json = { contentType: "application/json" };

  it("accepts a signed event and records it once, however often Slack retries it", async () => {
    expect((await slackCall("/slack/events", event, json)).status).toBe(200);
    const retry = await slackCall("/slack/events", event, { ...json, headers: { "x-slack-retry-num": "1" } });
    expect(retry.status).toBe(200);
    expect(await inboundCount()).toBe(1);
  });

  it("refuses with 401 and no side effect: flipped body, wrong secret, missing headers, stale or future timestamps", async () => {
    const before = await inboundCount();
    const good = await signedRequest("/slack/events", event, json);
    const flipped = new Request(good, { body: event.replace("Ev1", "Ev0") });
    const cases: Request[] = [
      flipped,
      await signedRequest("/slack/events", event, { ...json, secret: "another-signing-secret-000000" }),
      new Request("https://warden.test/slack/events", { method: "POST", body: event }),
      // ±310 s here (a second may tick between signing and checking); the exact ±299/301 edges are in the unit test
      await signedRequest("/slack/events", event, { ...json, skewS: -310 }),
      await signedRequest("/slack/events", event, { ...json, skewS: 310 }),
    ];
    for (const req of cases) {
      const res = await send(req);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("unauthorized");
    }
    for (const path of ["/slack/commands", "/slack/interactions"]) {
      const res = await slackCall(path, commandBody("help"), { secret: "another-signing-secret-000000" });
      expect(res.status).toBe(401);
    }
    expect(await inboundCount()).toBe(before);
    expect((await slackCall("/slack/events", event, { ...json, skewS: -290 })).status).toBe(200);
  });

  it("answers url_verification with its challenge", async () => {
    const body = JSON.stringify({
      type: "url_verification",
      token: "t",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    const res = await slackCall("/slack/events", body, { contentType: "application/json" });
    expect(res.json).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("answers malformed signed bodies with a 4xx envelope, never a 5xx", async () => {
    expect((await slackCall("/slack/events", "{not json", json)).status).toBe(400);
    expect((await slackCall("/slack/interactions", "payload=%7Bnope")).status).toBe(400);
    expect((await slackCall("/slack/interactions", "nothing=here")).status).toBe(400);
    expect((await slackCall("/slack/commands", "text=help")).status).toBe(400);
  });
});

describe("PUT /v1/slack/installation", () => {
  it("installs once, stores the bot token encrypted, refuses a foreign workspace; a second PUT is a gated change", async () => {
    const res = await installSlack("team-a");
    expect(res).toMatchObject({ workspace_id: WORKSPACE, team_id: "team-a", approvers: 3, status: "installed" });
    const [row] = await recordRows(slackInstallations, undefined, {
      bot_token_enc: slackInstallations.botTokenEnc,
      team_id: slackInstallations.teamId,
    });
    expect(row?.team_id).toBe("team-a");
    expect(row?.bot_token_enc).not.toContain("xoxb");
    const again = await call("PUT", "/v1/slack/installation", {
      token: await token("team-b", ["policy:admin"]),
      body: {
        workspace_id: WORKSPACE,
        bot_token: "xoxb-9-9-zzzz",
        channels: CHANNELS,
        approvers: [{ slack_user_id: "U1", subject: "x", role: "admin" }],
      },
    });
    expect(again.status).toBe(409);
    expect(
      (
        await call("PUT", "/v1/slack/installation", {
          token: await token("team-a", ["policy:admin"]),
          body: {
            workspace_id: "T9",
            bot_token: "xoxb-1-2-abcd",
            channels: CHANNELS,
            approvers: [{ slack_user_id: "U1", subject: "x", role: "admin" }],
          },
        })
      ).status,
    ).toBe(202);
  });

  it("requires policy:admin and a valid body", async () => {
    const body = { workspace_id: WORKSPACE, bot_token: "xoxb-1-2-abcd", channels: CHANNELS, approvers: [] };
    expect(
      (await call("PUT", "/v1/slack/installation", { token: await token("team-a", ["runs:write"]), body })).status,
    ).toBe(403);
    const bad = await call("PUT", "/v1/slack/installation", { token: await token("team-a", ["policy:admin"]), body });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("validation_failed");
    expect((await call("PUT", "/v1/slack/installation", { body })).status).toBe(401);
  });
});

describe("slash commands", () => {
  it("answers an unknown workspace politely and changes nothing", async () => {
    const res = await slackCall("/slack/commands", commandBody('new "x"', "U0ALICE", "T0UNKNOWN"));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ response_type: "ephemeral" });
    expect(res.json.text).toMatch(/not connected to Warden/);
    expect(await recordRows(runs, eq(runs.kind, "agent"))).toEqual([]);
  });

  it("refuses users outside the roster and shows usage for help and unknown subcommands", async () => {
    await installSlack("team-a");
    expect((await slackCall("/slack/commands", commandBody("help", "U0MALLORY"))).json.text).toMatch(
      /not on this team/,
    );
    expect((await slackCall("/slack/commands", commandBody("help"))).json.text).toMatch(/^Usage:/);
    expect((await slackCall("/slack/commands", commandBody("dance"))).json.text).toMatch(/^Usage:/);
    expect((await slackCall("/slack/commands", commandBody("new goal-without-quotes"))).json.text).toMatch(
      /quoted goal/,
    );
  });

  it("starts a run with new, opens its feed thread, shows status with a trace link, and stops it", async () => {
    await installSlack("team-a");
    const app = recordingApp();
    const started = await app.fetch(
      await signedRequest("/slack/commands", commandBody('new "reconcile invoices" template=invoice')),
    );
    expect(started.json.text).toMatch(/^Started run `run_/);
    const runId = /`(run_[0-9a-f]+)`/.exec(started.json.text)?.[1] as string;
    expect(app.sent).toEqual([expect.objectContaining({ kind: "post", channel: "feed", key: `run:${runId}` })]);
    // every View Trace link opens the trace page as it is posted (a signed view token, not the "Link expired" page)
    const rootLink = await openTraceLink((app.sent[0] as { text: string }).text);
    expect(rootLink.link).toContain(`/runs/${runId}/trace?view=`);
    expect([rootLink.status, rootLink.text.includes("reconcile invoices")]).toEqual([200, true]);
    const status = await slackCall("/slack/commands", commandBody(`status ${runId}`));
    expect(status.json.text).toContain("reconcile invoices");
    expect(status.json.text).toContain(
      "*Budget* 0 tokens (0 in · 0 out) · per step ≤ 800 in, ≤ 200 out · within budget",
    );
    const statusLink = await openTraceLink(status.json.text);
    expect(statusLink.link).toContain(`/runs/${runId}/trace?view=`);
    expect([statusLink.status, statusLink.text.includes("reconcile invoices")]).toEqual([200, true]);
    expect((await slackCall("/slack/commands", commandBody(`stop ${runId}`))).json.text).toBe(
      `Stopped run \`${runId}\`.`,
    );
    expect((await slackCall("/slack/commands", commandBody("status run_nope"))).json.text).toMatch(/No run/);
  });
});

describe("approval cards", () => {
  async function pendingGate(policyKey: string) {
    const worker = await token("team-a", ["runs:write", "runs:read"], { sub: "worker" });
    const run = await startRun(worker);
    const res = await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: worker,
      body: { policy_key: policyKey, op_id: "op-1", context: {} },
    });
    expect(res.json.status).toBe("pending");
    return {
      run_id: run.run_id,
      gate_id: res.json.gate_id as string,
      kind: res.json.kind as string,
      op_id: "op-1",
      policy_key: policyKey,
    };
  }
  const click = (
    g: { run_id: string; gate_id: string; kind: string; op_id: string; policy_key: string },
    actionId: string,
    user: string,
    actionTs = "1700000000.000100",
  ) => ({
    type: "block_actions",
    team: { id: WORKSPACE },
    user: { id: user },
    trigger_id: `trig-${user}-${actionTs}`,
    response_url: "https://hooks.slack.com/actions/T0TEAMA/1/xyz",
    actions: [{ action_id: actionId, value: JSON.stringify(g), action_ts: actionTs }],
  });
  const approvals = (runId: string) =>
    recordRows(approvalEvents, eq(approvalEvents.runId, runId), {
      decision: approvalEvents.decision,
      approver: approvalEvents.approver,
      note: approvalEvents.note,
    });

  it("applies the same block_actions payload delivered 3 times once", async () => {
    await installSlack("team-a");
    const g = await pendingGate("schema_invalid");
    const app = recordingApp();
    for (let i = 0; i < 3; i++) {
      const res = await app.fetch(
        await signedRequest("/slack/interactions", interactionBody(click(g, "gate_deny", "U0ALICE")), {
          headers: i ? { "x-slack-retry-num": String(i) } : {},
        }),
      );
      expect(res.status).toBe(200);
    }
    expect(await approvals(g.run_id)).toEqual([{ decision: "deny", approver: "alice", note: null }]);
    expect(app.sent).toEqual([]);
  });

  it("applies Slack's retry of a click whose first delivery failed to reach the run", async () => {
    await installSlack("team-a");
    const g = await pendingGate("schema_invalid");
    const broken = depsWith({
      runs: {
        get: () => {
          throw new Error("run object unreachable");
        },
      } as unknown as Deps["runs"],
    });
    const payload = interactionBody(click(g, "gate_deny", "U0ALICE", "1700000000.000777"));
    const first = await send(await signedRequest("/slack/interactions", payload), broken);
    expect(first.status).toBe(500);
    expect(await approvals(g.run_id)).toEqual([]);
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", payload, { headers: { "x-slack-retry-num": "1" } }));
    expect(await approvals(g.run_id)).toEqual([{ decision: "deny", approver: "alice", note: null }]);
  });

  it("lets one of two racing approvers decide and tells the other who decided and when", async () => {
    await installSlack("team-a");
    const g = await pendingGate("schema_invalid");
    const app = recordingApp();
    await Promise.all([
      app.fetch(await signedRequest("/slack/interactions", interactionBody(click(g, "gate_approve", "U0ALICE")))),
      app.fetch(await signedRequest("/slack/interactions", interactionBody(click(g, "gate_deny", "U0BOB")))),
    ]);
    const rowsNow = await approvals(g.run_id);
    expect(rowsNow).toHaveLength(1);
    expect(app.sent).toHaveLength(1);
    const told = app.sent[0] as Extract<SlackOutboxMessage, { kind: "respond" }>;
    expect(told.kind).toBe("respond");
    expect(told.text).toMatch(new RegExp(`already decided \\(\\w+\\) by ${rowsNow[0]?.approver} at \\d{4}-`));
  });

  it("refuses a click from outside the roster with an ephemeral answer and an audit row", async () => {
    await installSlack("team-a");
    const g = await pendingGate("schema_invalid");
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(click(g, "gate_approve", "U0MALLORY"))));
    expect(await approvals(g.run_id)).toEqual([]);
    expect(app.sent).toEqual([
      expect.objectContaining({ kind: "respond", text: expect.stringMatching(/not on this team's approver roster/) }),
    ]);
    const audit = await recordRows(auditLog, eq(auditLog.action, "slack.approval_refused"), {
      action: auditLog.action,
      actor: auditLog.actor,
    });
    expect(audit).toEqual([{ action: "slack.approval_refused", actor: "slack:U0MALLORY" }]);
  });

  it("refuses self-approval: the gate's opener cannot approve it from Slack", async () => {
    await installSlack("team-a");
    const g = await pendingGate("schema_invalid");
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(click(g, "gate_deny", "U0WORKER"))));
    expect(await approvals(g.run_id)).toEqual([]);
    expect(app.sent).toEqual([expect.objectContaining({ text: "You cannot approve a gate you opened yourself." })]);
  });

  it("opens a note modal for a hard-gate approval instead of deciding, and decides when the note is submitted", async () => {
    await installSlack("team-a");
    const g = await pendingGate("wrong_value");
    expect(g.kind).toBe("hard");
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(click(g, "gate_approve", "U0ALICE"))));
    expect(await approvals(g.run_id)).toEqual([]);
    expect(app.apiCalls).toHaveLength(1);
    expect(app.apiCalls[0]?.method).toBe("views.open");
    const view = app.apiCalls[0]?.body.view;
    const submit = (note: string) =>
      noteSubmission("U0ALICE", view.private_metadata, { note: { note: { type: "plain_text_input", value: note } } });
    const empty = await app.fetch(await signedRequest("/slack/interactions", interactionBody(submit("  "))));
    expect(empty.json).toMatchObject({ response_action: "errors", errors: { note: expect.any(String) } });
    expect(await approvals(g.run_id)).toEqual([]);
    const done = await app.fetch(
      await signedRequest("/slack/interactions", interactionBody(submit("customer confirmed the value"))),
    );
    expect(done.json).toEqual({ response_action: "clear" });
    expect(await approvals(g.run_id)).toEqual([
      { decision: "retry", approver: "alice", note: "customer confirmed the value" },
    ]);
    // a later click on the decided hard gate is told at once: no note modal, nothing decided again
    const late = recordingApp();
    await late.fetch(
      await signedRequest("/slack/interactions", interactionBody(click(g, "gate_deny", "U0BOB", "17.9"))),
    );
    expect(late.apiCalls.map((c) => c.method)).not.toContain("views.open");
    expect(late.sent).toEqual([
      expect.objectContaining({
        kind: "respond",
        text: expect.stringMatching(
          /^This gate was already decided \(approved\) by alice at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\./,
        ),
      }),
    ]);
    expect(await approvals(g.run_id)).toHaveLength(1);
  });
});
