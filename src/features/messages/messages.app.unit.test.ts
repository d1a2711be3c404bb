// Run messages: the API's refusals and cursor, a worker's message posted into the talk thread (loopback Slack), and
// people's signed replies in the thread or a DM becoming run messages.
import { describe, expect, it } from "vitest";
import { apiRequest, readResponse } from "../../../test/http";
import { executionContext, nodeHelpers } from "../../../test/node-d1/app";
import { deliverBatch } from "../../../test/node-d1/consumers";
import { nodeGateTools } from "../../../test/node-d1/gate-tools";
import { NODE_SLACK_VARS, nodeLoopbackSlack } from "../../../test/node-d1/slack";
import { CHANNELS, commandBody, type SignOptions, signSlackRequest } from "../../../test/slack-bodies";
import type { LoopbackSlack } from "../../../test/slack-loopback";
import { createSlackWebApi } from "../../adapters/slack/web-api";
import { createApp } from "../../app";
import { consumeSlackOutbox } from "../slack";
import type { SlackOutboxMessage } from "../slack/store/slack-store-port";

const helpers = await nodeHelpers({ vars: NODE_SLACK_VARS });
const { addOrder, call, deps: appDeps, depsWith, startRun, token } = helpers;
const { installSlack } = nodeGateTools(helpers);
const signedRequest = (path: string, body: string, o: SignOptions = {}) =>
  signSlackRequest(NODE_SLACK_VARS.SLACK_SIGNING_SECRET, path, body, o);
/** the ts of the posted message with this logical key (slack_message, through the Slack store) */
const postedTs = async (key: string) => (await appDeps.slackStore.postedMessage(key))?.ts as string;

const messagesOf = (runId: string) => `/v1/runs/${runId}/messages`;

describe("run messages API", () => {
  it("stores a worker's message and reads the run's messages after a cursor, oldest first", async () => {
    const tok = await token("msg-a", ["runs:write", "runs:read"], { sub: "worker-a" });
    const run = await startRun(tok);
    const first = await call("POST", messagesOf(run.run_id), { token: tok, body: { text: "first answer" } });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toMatchObject({ run_id: run.run_id, author_kind: "worker", author: "worker-a", source: "api" });
    const second = await call("POST", messagesOf(run.run_id), { token: tok, body: { text: "second", task_id: "t-9" } });
    expect(second.json.seq).toBeGreaterThan(first.json.seq);

    const all = await call("GET", messagesOf(run.run_id), { token: tok });
    expect(all.json.messages.map((m: any) => m.text)).toEqual(["first answer", "second"]);
    expect(all.json.messages[1].task_id).toBe("t-9");
    expect(all.json.next_after).toBe(second.json.seq);
    const newer = await call("GET", `${messagesOf(run.run_id)}?after=${first.json.seq}`, { token: tok });
    expect(newer.json.messages.map((m: any) => m.message_id)).toEqual([second.json.message_id]);
    const none = await call("GET", `${messagesOf(run.run_id)}?after=${second.json.seq}`, { token: tok });
    expect(none.json).toEqual({ messages: [], next_after: second.json.seq });
  });

  it("names the run's only task when neither the body nor the token does", async () => {
    const tok = await token("msg-task");
    const run = await startRun(tok);
    await addOrder(tok, run.run_id, "o1");
    const res = await call("POST", messagesOf(run.run_id), { token: tok, body: { text: "on it" } });
    expect(res.json.task_id).toBe("task-o1");
  });

  it("answers a retry with the same op_id with the message it wrote, and 409 for another text", async () => {
    const tok = await token("msg-op");
    const run = await startRun(tok);
    const body = { text: "once", op_id: "op-1" };
    const a = await call("POST", messagesOf(run.run_id), { token: tok, body });
    const b = await call("POST", messagesOf(run.run_id), { token: tok, body });
    expect([a.status, b.status]).toEqual([201, 200]);
    expect(b.json.message_id).toBe(a.json.message_id);
    const c = await call("POST", messagesOf(run.run_id), { token: tok, body: { text: "other", op_id: "op-1" } });
    expect(c.status).toBe(409);
    expect((await call("GET", messagesOf(run.run_id), { token: tok })).json.messages).toHaveLength(1);
  });

  it("refuses another team's run (404), a token bound to another run (403) and a token without the scope (403)", async () => {
    const owner = await token("msg-own");
    const run = await startRun(owner);
    const other = await token("msg-other");
    for (const [method, body] of [
      ["POST", { text: "hi" }],
      ["GET", undefined],
    ] as const) {
      const res = await call(method, messagesOf(run.run_id), { token: other, body });
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }
    const bound = await token("msg-own", undefined, { runId: "run_elsewhere" });
    expect((await call("POST", messagesOf(run.run_id), { token: bound, body: { text: "hi" } })).status).toBe(403);
    const reader = await token("msg-own", ["runs:read"]);
    const refused = await call("POST", messagesOf(run.run_id), { token: reader, body: { text: "hi" } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("forbidden");
    expect((await call("GET", messagesOf(run.run_id), { token: owner })).json.messages).toEqual([]);
  });

  it("refuses a bad body with 400 and stores nothing", async () => {
    const tok = await token("msg-bad");
    const run = await startRun(tok);
    for (const body of [
      {},
      { text: "" },
      { text: "   " },
      { text: 7 },
      { text: "x".repeat(4001) },
      { text: "a", extra: 1 },
    ]) {
      const res = await call("POST", messagesOf(run.run_id), { token: tok, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
    }
    const badCursor = await call("GET", `${messagesOf(run.run_id)}?after=-1`, { token: tok });
    expect(badCursor.status).toBe(400);
    expect((await call("GET", messagesOf(run.run_id), { token: tok })).json.messages).toEqual([]);
  });

  it("refuses a secret (422 redaction_required) and personal data (422 pii_detected) without echoing it", async () => {
    const tok = await token("msg-guard");
    const run = await startRun(tok);
    const secret = "use key AKIAIOSFODNN7EXAMPLQ with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    const s = await call("POST", messagesOf(run.run_id), { token: tok, body: { text: secret } });
    expect(s.status).toBe(422);
    expect(s.json.error.code).toBe("redaction_required");
    expect(s.text).not.toContain("AKIA");
    const p = await call("POST", messagesOf(run.run_id), { token: tok, body: { text: "mail jane.doe@example.com" } });
    expect(p.status).toBe(422);
    expect(p.json.error.code).toBe("pii_detected");
    expect(p.text).not.toContain("jane.doe");
    expect((await call("GET", messagesOf(run.run_id), { token: tok })).json.messages).toEqual([]);
  });
});

const loopback = nodeLoopbackSlack();
let fileSlack: LoopbackSlack | undefined;
/** this file's prefix on the loopback Slack server (one for the whole file, as in workerd) */
const slack = () => (fileSlack ??= loopback.slack());
const WORKSPACE = "T0MSGS";
const TEAM = "msg-slack";

/** The app with the SLACK_OUTBOX recorded and delivered by the real consumer to the loopback Slack server. */
function harness() {
  const sent: SlackOutboxMessage[] = [];
  const deps = depsWith({
    slackOutbox: { send: async (m) => void sent.push(...m) },
    slackApi: createSlackWebApi(slack().base),
  });
  const app = createApp();
  let delivered = 0;
  return {
    sent,
    async fetch(req: Request) {
      const { ctx, settle } = executionContext();
      const res = await readResponse(await app.fetch(req, { deps }, ctx as never));
      await settle();
      return res;
    },
    /** delivers what was queued since the last flush, one batch */
    async flush() {
      const bodies = sent.slice(delivered);
      delivered = sent.length;
      if (bodies.length === 0) return;
      const result = await deliverBatch("warden-slack-outbox", bodies, 1, (batch) =>
        consumeSlackOutbox(batch as MessageBatch<SlackOutboxMessage>, deps),
      );
      expect(result.retried).toEqual([]);
    },
  };
}

const messageEvent = (event: Record<string, unknown>) =>
  JSON.stringify({
    type: "event_callback",
    team_id: WORKSPACE,
    event_id: `Ev${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`,
    event: { type: "message", ...event },
  });
const signedEvent = (body: string) => signedRequest("/slack/events", body, { contentType: "application/json" });

async function postsTo(channel: string) {
  return (await slack().requests("chat.postMessage")).map((r) => r.body).filter((b: any) => b.channel === channel);
}

describe("talk over Slack", () => {
  it("posts a worker's message into the talk's thread, naming the run and its task", async () => {
    await installSlack(TEAM, WORKSPACE);
    const h = harness();
    const started = await h.fetch(
      await signedRequest("/slack/commands", commandBody("talk what failed?", "U0ALICE", WORKSPACE)),
    );
    expect(started.status).toBe(200);
    const runId = /run `([^`]+)`/.exec(started.json.text)?.[1] as string;
    const taskId = /task `([^`]+)`/.exec(started.json.text)?.[1] as string;
    await h.flush();
    const root = (await postsTo(CHANNELS.feed)).find((b: any) => String(b.text).includes("opened a talk"));
    expect(root).toBeDefined();
    const rootTs = await postedTs(`run:${runId}`);

    const worker = await token(TEAM, ["runs:write"], { sub: "talk-worker", runId, taskId });
    const res = await h.fetch(
      apiRequest("POST", messagesOf(runId), { token: worker, body: { text: "3 invoices failed" } }),
    );
    expect(res.status, res.text).toBe(201);
    await h.flush();
    const answer = (await postsTo(CHANNELS.feed)).find((b: any) => String(b.text).startsWith("3 invoices failed"));
    expect(answer).toMatchObject({ thread_ts: rootTs });
    expect(answer.text).toContain(`run \`${runId}\``);
    expect(answer.text).toContain(`task \`${taskId}\``);
  });

  it("stores a roster member's signed reply in a run's thread once, and ignores bots and people off the roster", async () => {
    await installSlack(TEAM, WORKSPACE);
    const h = harness();
    const started = await h.fetch(
      await signedRequest("/slack/commands", commandBody("talk status?", "U0ALICE", WORKSPACE)),
    );
    const runId = /run `([^`]+)`/.exec(started.json.text)?.[1] as string;
    await h.flush();
    const rootTs = await postedTs(`run:${runId}`);
    const reply = messageEvent({
      channel: CHANNELS.feed,
      user: "U0BOB",
      text: "check invoice 7",
      ts: "1800000000.000100",
      thread_ts: rootTs,
    });
    expect((await h.fetch(await signedEvent(reply))).status).toBe(200);
    // Slack's retry of the same event changes nothing
    expect((await h.fetch(await signedEvent(reply))).status).toBe(200);
    const ignored = [
      {
        channel: CHANNELS.feed,
        user: "U0BOB",
        bot_id: "B0WARDEN",
        text: "bot says",
        ts: "1800000000.000200",
        thread_ts: rootTs,
      },
      { channel: CHANNELS.feed, user: "U0MALLORY", text: "off roster", ts: "1800000000.000300", thread_ts: rootTs },
      {
        channel: CHANNELS.feed,
        user: "U0BOB",
        subtype: "message_changed",
        text: "edit",
        ts: "1800000000.000400",
        thread_ts: rootTs,
      },
    ];
    for (const e of ignored) expect((await h.fetch(await signedEvent(messageEvent(e)))).status).toBe(200);

    const read = await call("GET", messagesOf(runId), { token: await token(TEAM, ["runs:read"]) });
    expect(read.json.messages).toHaveLength(1);
    expect(read.json.messages[0]).toMatchObject({
      author_kind: "person",
      author: "bob",
      source: "slack_thread",
      text: "check invoice 7",
    });
  });

  it("refuses an unsigned or badly signed event (401) and stores nothing", async () => {
    await installSlack(TEAM, WORKSPACE);
    const h = harness();
    const started = await h.fetch(
      await signedRequest("/slack/commands", commandBody("talk unsigned?", "U0ALICE", WORKSPACE)),
    );
    const runId = /run `([^`]+)`/.exec(started.json.text)?.[1] as string;
    await h.flush();
    const rootTs = await postedTs(`run:${runId}`);
    const body = messageEvent({
      channel: CHANNELS.feed,
      user: "U0BOB",
      text: "sneaky",
      ts: "1800000001.000100",
      thread_ts: rootTs,
    });
    const unsigned = await h.fetch(
      new Request("https://warden.test/slack/events", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
    );
    expect(unsigned.status).toBe(401);
    const forged = await h.fetch(
      await signedRequest("/slack/events", body, { contentType: "application/json", secret: "not-the-secret" }),
    );
    expect(forged.status).toBe(401);
    const read = await call("GET", messagesOf(runId), { token: await token(TEAM, ["runs:read"]) });
    expect(read.json.messages).toEqual([]);
  });

  it("opens a talk from a DM, answers in the DM's thread and stores the DM thread's replies", async () => {
    await installSlack(TEAM, WORKSPACE);
    const h = harness();
    const dm = { channel: "D0ALICE", channel_type: "im", user: "U0ALICE" };
    expect(
      (
        await h.fetch(
          await signedEvent(messageEvent({ ...dm, text: "which runs failed today?", ts: "1800000002.000100" })),
        )
      ).status,
    ).toBe(200);
    await h.flush();
    const opened = (await postsTo("D0ALICE")).find((b: any) => String(b.text).startsWith("Started run"));
    expect(opened).toMatchObject({ thread_ts: "1800000002.000100" });
    const runId = /run `([^`]+)`/.exec(opened.text)?.[1] as string;
    // a private conversation stays out of the feed channel
    expect((await postsTo(CHANNELS.feed)).some((b: any) => String(b.text).includes(runId))).toBe(false);

    const worker = await token(TEAM, ["runs:write", "runs:read"], { sub: "talk-worker", runId });
    await h.fetch(apiRequest("POST", messagesOf(runId), { token: worker, body: { text: "two runs failed" } }));
    await h.flush();
    expect((await postsTo("D0ALICE")).find((b: any) => String(b.text).startsWith("two runs failed"))).toMatchObject({
      thread_ts: "1800000002.000100",
    });
    await h.fetch(
      await signedEvent(
        messageEvent({ ...dm, text: "thanks, retry them", ts: "1800000002.000300", thread_ts: "1800000002.000100" }),
      ),
    );
    const read = await call("GET", messagesOf(runId), { token: worker });
    expect(read.json.messages.map((m: any) => [m.author_kind, m.source, m.text])).toEqual([
      ["worker", "api", "two runs failed"],
      ["person", "slack_dm", "thanks, retry them"],
    ]);
  });
});
