// The run feed and operator alerts in Node (run object, D1 and queue stand-ins): real run events through the EVENTS
// consumer (the D1 feed state over the stand-in), the queued messages through the real SLACK_OUTBOX consumer and Slack
// client to the loopback Slack server this file starts.
//
// The runs live in a team without Slack and their events are handed over as another, installed team's, so the feed
// state these tests read is only what they themselves fed in.
import { beforeAll, describe, expect, it } from "vitest";
import { isQueuedRunEvent } from "../../../contracts/internal-events";
import { runBatch } from "../../../test/fakes/queues";
import { nodeLoopbackSlack, nodeSlackHelpers, outboxHarness } from "../../../test/node-d1/slack";
import { commandBody, openTraceLinkWith } from "../../../test/slack-bodies";
import type { LoopbackSlack } from "../../../test/slack-loopback";
import { verifyViewToken } from "../../auth/view-token";
import { consumeDeadLetters } from "../events/dead-letters";
import { alertsOfEvent, coalesceAlerts } from "./alerts";
import { consumeSlackDeadLetters } from "./alerts-enqueue";
import { feedKeys } from "./feed";
import { consumeSlackOutbox, THREAD_WAIT } from "./outbox";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const loopback = nodeLoopbackSlack();
const warden = await nodeSlackHelpers();
const {
  addOrder,
  call,
  complete,
  deps: appDeps,
  drain,
  env,
  eventLog,
  fireAlarm,
  installSlack,
  lease,
  send,
  setClock,
  signedRequest,
  startRun,
  token,
} = warden;
/** this file's own prefix on the loopback Slack server */
let slack: LoopbackSlack;
beforeAll(() => {
  slack = loopback.slack();
});

const CHANNELS = { control: "C0CTRL", approvals: "C0APPR", feed: "C0FEED", ops: "C0OPS" };

/** Deps whose SLACK_OUTBOX sends are recorded (one entry per send) and whose Slack client calls the loopback server. */
const harness = () => outboxHarness(warden, slack.base);

/** the run's View Trace link opened without a token, through this warden */
const openTraceLink = (text: string) => openTraceLinkWith(call, text);

/** The loopback requests made after `since` (an index from an earlier read). */
async function slackCallsSince(since: number) {
  const all = await slack.requests();
  return all.slice(since).map((r) => ({ method: r.path.replace(/^.*\/api\//, ""), body: r.body }));
}

/** A run of a team without Slack with `orders` orders each leased and completed PASS; its queued events. */
async function busyRun(srcTeam: string, orders: number) {
  const worker = await token(srcTeam, ["runs:write", "runs:read"], { sub: "worker" });
  const run = await startRun(worker);
  for (let i = 1; i <= orders; i++) await addOrder(worker, run.run_id, `o${i}`);
  for (let i = 1; i <= orders; i++) {
    const l = (await lease(worker, run.run_id, `o${i}`)).json;
    const res = await complete(worker, run.run_id, `o${i}`, {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: `op${i}`,
      outcome: "PASS",
      tokens_in: 100 + i,
      tokens_out: 20,
    });
    expect(res.status, res.text).toBe(200);
  }
  await drain(run.run_id);
  return { runId: run.run_id, worker, events: (await eventLog(run.run_id)).filter(isQueuedRunEvent) };
}

const asTeam = <T extends { team_id: string }>(events: T[], teamId: string) =>
  events.map((e) => ({ ...e, team_id: teamId }));

// several runs and queue batches per test: more than the default 5 s on a loaded machine
describe("run feed", () => {
  it("turns a busy run into one root, one status reply edited in place and one completion reply — not a message per step", async () => {
    await installSlack("feed-a", "T0FEEDA");
    const { runId, events } = await busyRun("feed-src-a", 4);
    const h = harness();
    const before = (await slack.requests()).length;
    // one event per queue batch, as a busy run's events trickle in
    for (const e of asTeam(events, "feed-a")) {
      await h.deliver([e]);
      await h.flush();
    }
    const calls = await slackCallsSince(before);
    const posts = calls.filter((c) => c.method === "chat.postMessage");
    const updates = calls.filter((c) => c.method === "chat.update");
    const completes = events.filter((e) => e.type === "task.completed");
    expect(completes).toHaveLength(4);
    // root + status + completion, however many steps
    expect(posts).toHaveLength(3);
    expect(posts.every((p) => p.body.channel === CHANNELS.feed)).toBe(true);
    const [root, status, done] = posts;
    expect(root?.body.thread_ts).toBeUndefined();
    expect(root?.body.text).toContain(`team \`feed-a\` · run \`${runId}\` · order \`o1\``);
    // the root's View Trace link carries a view token for this team's run (the page's own test opens such links)
    const view = /\?view=([\w.-]+)\|View Trace>/.exec(root?.body.text ?? "")?.[1] ?? "";
    expect(await verifyViewToken(env.WARDEN_JWT_SECRET, view, Date.now())).toMatchObject({
      ok: true,
      value: { kind: "run", team_id: "feed-a", run_id: runId },
    });
    expect(root?.body.metadata).toEqual({
      event_type: "warden_run",
      event_payload: { team_id: "feed-a", run_id: runId, order_id: "o1" },
    });
    const rootTs = (await appDeps.slackStore.postedMessage(feedKeys.root(runId)))?.ts;
    expect(status?.body.thread_ts).toBe(rootTs);
    expect(done?.body.thread_ts).toBe(rootTs);
    expect(done?.body.text).toContain("Run COMPLETE");
    // the status reply was edited once per later step (events 2..5: three more attempts and the completion)
    expect(updates).toHaveLength(events.length - 1);
    const statusTs = await appDeps.slackStore.postedMessage(feedKeys.status(runId));
    expect(updates.every((u) => u.body.ts === statusTs?.ts)).toBe(true);
    expect(statusTs?.version).toBe(events.length);
    const last = updates.at(-1)?.body.text as string;
    for (let i = 1; i <= 4; i++)
      expect(last).toMatch(new RegExp(`order \`o${i}\` — PASS \\(\\d+\\.\\ds • ${120 + i} tokens\\)`));
    expect(last).toContain("run COMPLETE");
  });

  it("sends nothing for a redelivered event: no second message, not even an edit", async () => {
    await installSlack("feed-b", "T0FEEDB");
    const { events } = await busyRun("feed-src-b", 1);
    const h = harness();
    const batch = asTeam(events, "feed-b");
    expect((await h.deliver(batch)).retried).toEqual([]);
    await h.flush();
    const sentOnce = h.sent.length;
    const before = (await slack.requests()).length;
    const again = await h.deliver(batch, 2);
    expect(again.acked.sort()).toEqual(batch.map((e) => e.event_id).sort());
    await h.flush();
    expect(h.sent.length).toBe(sentOnce);
    expect(await slackCallsSince(before)).toEqual([]);
  });

  it("queues nothing for a team without Slack", async () => {
    const { runId, events } = await busyRun("feed-src-none", 1);
    const h = harness();
    await h.deliver(events);
    expect(h.posts().filter((m) => m.channel === "feed")).toEqual([]);
    expect(await appDeps.slackFeed.feedRun(runId)).toBeNull();
  });

  it("posts a muted run's gate card but nothing in its feed", async () => {
    await installSlack("feed-m", "T0FEEDM");
    const worker = await token("feed-src-m", ["runs:write", "runs:read"], { sub: "worker" });
    const run = await startRun(worker);
    const h = harness();
    await h.deps.slackFeed.setMuted("feed-m", run.run_id, { by: "alice" }, Date.now());
    const opened = await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: worker,
      body: { policy_key: "wrong_value", op_id: "op-1" },
    });
    expect(opened.json.status).toBe("pending");
    await drain(run.run_id);
    const events = asTeam((await eventLog(run.run_id)).filter(isQueuedRunEvent), "feed-m");
    const before = (await slack.requests()).length;
    await h.deliver(events);
    await h.flush();
    expect(h.posts().map((m) => m.key)).toEqual([`gate:${opened.json.gate_id}`]);
    const calls = await slackCallsSince(before);
    expect(calls.map((c) => [c.method, c.body.channel])).toEqual([["chat.postMessage", CHANNELS.approvals]]);
    // the steps are still taken in, so an unmute shows the status as it stands
    const stored = await h.deps.slackFeed.feedRun(run.run_id);
    expect(stored).toMatchObject({ muted: true, version: 1 });
  });
});

/** A slash command through the app with the harness's deps (its outbox recorded). */
async function command(h: ReturnType<typeof harness>, text: string, user = "U0ALICE", workspace = "T0FEEDC") {
  return send(await signedRequest("/slack/commands", commandBody(text, user, workspace)), h.deps);
}

describe("thread replies in the outbox", () => {
  it("holds a reply whose root is not posted yet (not a Slack failure), then posts it unthreaded after 3 deliveries", async () => {
    await installSlack("feed-t", "T0FEEDT");
    const h = harness();
    const reply: SlackOutboxMessage = {
      kind: "post",
      team_id: "feed-t",
      key: "feed:r-none:status",
      channel: "feed",
      thread_key: "run:r-none",
      text: "status",
      version: 1,
    };
    const before = (await slack.requests()).length;
    // a hand-made batch: getQueueResult does not report a retry's delay
    const retried: unknown[] = [];
    const early = {
      queue: "warden-slack-outbox",
      messages: [
        {
          id: "t1",
          timestamp: new Date(),
          attempts: 1,
          body: reply,
          ack: () => expect.unreachable("acked before its root was posted"),
          retry: (o?: unknown) => void retried.push(o),
        },
      ],
    } as unknown as MessageBatch<unknown>;
    await consumeSlackOutbox(early, h.deps);
    expect(retried).toEqual([{ delaySeconds: THREAD_WAIT.delayS }]);
    expect(await slackCallsSince(before)).toEqual([]);
    // no delivery failure recorded for the team (workerd read: no slack_delivery_health row)
    expect(await appDeps.slackHealth.health("feed-t")).toEqual({ consecutive_failures: 0, outage_since: null });
    const late = await runBatch((b) => consumeSlackOutbox(b, h.deps), "warden-slack-outbox", [
      { id: "t2", attempts: THREAD_WAIT.attempts, body: reply },
    ]);
    expect(late.explicitAcks).toEqual(["t2"]);
    const calls = await slackCallsSince(before);
    expect(calls.map((c) => [c.method, c.body.channel, c.body.thread_ts])).toEqual([
      ["chat.postMessage", CHANNELS.feed, undefined],
    ]);
  });
});

describe("mute, unmute and talk", () => {
  it("mutes and unmutes a run of the caller's team only, and refuses a run id it does not name", async () => {
    await installSlack("feed-c", "T0FEEDC");
    const run = await startRun(await token("feed-c", ["runs:write", "runs:read"], { sub: "worker" }));
    const other = await startRun(await token("feed-other", ["runs:write", "runs:read"], { sub: "worker" }));
    const h = harness();
    const muted = await command(h, `mute ${run.run_id}`);
    expect(muted.json.text).toContain(`Muted the feed of run \`${run.run_id}\``);
    expect(await appDeps.slackFeed.feedRun(run.run_id)).toMatchObject({ muted: true, muted_by: "alice" });
    const foreign = await command(h, `mute ${other.run_id}`);
    expect(foreign.json.text).toBe(`No run \`${other.run_id}\` for this team.`);
    expect(await appDeps.slackFeed.feedRun(other.run_id)).toBeNull();
    expect((await command(h, "mute")).json.text).toContain("mute needs a run id.");
    const unmuted = await command(h, `unmute ${run.run_id}`);
    expect(unmuted.json.text).toContain("Unmuted");
    expect(await appDeps.slackFeed.feedRun(run.run_id)).toMatchObject({ muted: false, muted_by: null });
    // the unmute re-queues the root (version 0: a root posted by `new` keeps its text), with a link that opens
    expect(h.posts().map((m) => [m.key, m.version])).toEqual([[feedKeys.root(run.run_id), 0]]);
    expect((await openTraceLink(h.posts()[0]?.text ?? "")).status).toBe(200);
  });

  it("talk opens a thread in the feed channel and replies there with the run and the task it spawned", async () => {
    await installSlack("feed-c", "T0FEEDC");
    const h = harness();
    const before = (await slack.requests()).length;
    const res = await command(h, 'talk "what failed in the invoice run?"');
    const [, runId, taskId] = /run `([^`]+)`, task `([^`]+)`/.exec(res.json.text) ?? [];
    expect(runId && taskId).toBeTruthy();
    await h.flush();
    const calls = await slackCallsSince(before);
    expect(calls.map((c) => [c.method, c.body.channel])).toEqual([
      ["chat.postMessage", CHANNELS.feed],
      ["chat.postMessage", CHANNELS.feed],
    ]);
    const [root, reply] = calls;
    const rootTs = (await appDeps.slackStore.postedMessage(`run:${runId}`))?.ts;
    expect(root?.body.thread_ts).toBeUndefined();
    expect((await openTraceLink(root?.body.text ?? "")).status).toBe(200);
    expect(reply?.body.thread_ts).toBe(rootTs);
    expect(reply?.body.text).toContain(`run \`${runId}\``);
    expect(reply?.body.text).toContain(`task \`${taskId}\``);
    expect(reply?.body.metadata.event_payload).toMatchObject({ team_id: "feed-c", run_id: runId, task_id: taskId });
    // the run and its task are real: the run object holds the order with the message as its goal
    const view = await call("GET", `/v1/runs/${runId}`, {
      token: await token("feed-c", ["runs:read"], { sub: "alice" }),
    });
    expect(view.status).toBe(200);
    expect(view.json.goal).toBe("talk: what failed in the invoice run?");
    expect(view.json.orders).toEqual([
      expect.objectContaining({ task_id: taskId, goal: "what failed in the invoice run?", skill: "talk" }),
    ]);
  });

  it("talk refuses a message holding a secret and starts nothing", async () => {
    await installSlack("feed-c", "T0FEEDC");
    const h = harness();
    const res = await command(h, "talk my key is AKIAZ7Q3XK2LMNP4RS5T please use it");
    expect(res.json.text).toContain("Not started");
    expect(h.sent).toEqual([]);
  });
});

describe("operator alerts", () => {
  it("coalesces alerts of one kind within the window into one ops message, edited with the count", async () => {
    await installSlack("alert-a", "T0ALERTA");
    const worker = await token("alert-src-a", ["runs:write", "runs:read"], { sub: "worker" });
    const run = await startRun(worker);
    // two attempts over the per-step input budget (800): two budget breaches
    for (const i of [1, 2]) {
      await addOrder(worker, run.run_id, `b${i}`);
      const l = (await lease(worker, run.run_id, `b${i}`)).json;
      await complete(worker, run.run_id, `b${i}`, {
        lease_id: l.lease_id,
        epoch: l.epoch,
        op_id: `bop${i}`,
        outcome: "PASS",
        tokens_in: 5000,
        tokens_out: 1,
      });
    }
    await drain(run.run_id);
    const breaches = (await eventLog(run.run_id)).filter(
      (e) => e.type === "task.failed" && e.failure_class === "budget_exceeded",
    );
    expect(breaches).toHaveLength(2);
    const h = harness();
    const before = (await slack.requests()).length;
    for (const e of asTeam(breaches, "alert-a")) {
      await h.deliver([e]);
      await h.flush();
    }
    // a redelivery counts nothing twice
    await h.deliver(asTeam(breaches, "alert-a"), 2);
    await h.flush();
    const ops = (await slackCallsSince(before)).filter(
      (c) => c.body.channel === CHANNELS.ops || c.method === "chat.update",
    );
    const alertCalls = ops.filter((c) => String(c.body.text).includes("Budget breaches"));
    expect(alertCalls.map((c) => c.method)).toEqual(["chat.postMessage", "chat.update", "chat.update"]);
    expect(alertCalls[0]?.body.text).toContain("*Budget breaches*: 1 in");
    expect(alertCalls[1]?.body.text).toContain("*Budget breaches*: 2 in");
    expect(alertCalls[2]?.body.text).toContain("*Budget breaches*: 2 in");
    // the team's occurrences as stored: recording the same ones again adds none, and their window holds two
    const groups = coalesceAlerts(asTeam(breaches, "alert-a").flatMap(alertsOfEvent));
    const counts = await appDeps.slackFeed.recordAlerts(
      groups.flatMap((g) => g.occurrences.map((o) => ({ ...o, window_start: g.window_start }))),
    );
    expect([...counts.values()]).toEqual([2]);
  });

  it("reaches every alert kind from its producer", async () => {
    await installSlack("alert-k", "T0ALERTK");
    const team = "alert-k";
    const h = harness();
    const worker = await token("alert-src-k", ["runs:write", "runs:read"], { sub: "worker" });
    const run = await startRun(worker);
    // dead_letters: wrong_value dead-letters its order (budget_breach: the test above)
    await addOrder(worker, run.run_id, "wv");
    const l = (await lease(worker, run.run_id, "wv")).json;
    await complete(worker, run.run_id, "wv", {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: "wv1",
      outcome: "DECLINE",
      failure_class: "wrong_value",
    });
    // soft_gate_timeout: a soft gate the timer decides
    const soft = await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: worker,
      body: { policy_key: "budget_increase", op_id: "op-soft", context: { increase_pct: 10 } },
    });
    expect(soft.json.kind).toBe("soft");
    await setClock(run.run_id, soft.json.deadline_at);
    expect(await fireAlarm(run.run_id)).toBe(true);
    await drain(run.run_id);
    const runEvents = asTeam((await eventLog(run.run_id)).filter(isQueuedRunEvent), team);
    await h.deliver(runEvents);
    // rollback_demotion: the rollback sweep's event
    await h.deliver([
      {
        event_id: `rollback-${crypto.randomUUID()}`,
        type: "policy.rollback",
        team_id: team,
        occurred_at: Date.now(),
        run_id: null,
        trigger_id: "wrong_value_rate",
        metric: "wrong_value_rate",
        value: 0.4,
        sample: 25,
        threshold: "> 0.2",
        from: "enforce",
        to: "shadow",
      },
    ]);
    // queue_dead_letters: an event that exhausted its retries on EVENTS
    await runBatch((b) => consumeDeadLetters(b, h.deps), "warden-events-dlq", [
      { id: "dlq1", attempts: 4, body: { event_id: "evt-lost", type: "task.completed", team_id: team } },
    ]);
    // slack_delivery_failed: a card Slack never took; an alert that died is not re-raised (no loop)
    const slackDlq = await runBatch((b) => consumeSlackDeadLetters(b, h.deps), "warden-slack-outbox-dlq", [
      {
        id: "sdl1",
        attempts: 10,
        body: { kind: "post", team_id: team, key: "gate:g-lost", channel: "approvals", text: "card" },
      },
      {
        id: "sdl2",
        attempts: 10,
        body: { kind: "post", team_id: team, key: "alert:alert-k:budget_breach:0", channel: "ops", text: "alert" },
      },
    ]);
    expect(slackDlq.explicitAcks.sort()).toEqual(["sdl1", "sdl2"]);

    const kinds = h
      .posts()
      .filter((m) => m.channel === "ops")
      .map((m) => m.key.split(":")[2]);
    expect(new Set(kinds)).toEqual(
      new Set([
        "dead_letters",
        "soft_gate_timeout",
        "rollback_demotion",
        "queue_dead_letters",
        "slack_delivery_failed",
      ]),
    );
    const failed = h.posts().find((m) => m.key.includes(":slack_delivery_failed:"));
    expect(failed?.version).toBe(1);
    expect(failed?.text).toContain("`gate:g-lost`");
    // delivered to the ops channel through the real client
    const before = (await slack.requests()).length;
    await h.flush();
    const calls = await slackCallsSince(before);
    expect(calls.filter((c) => c.body.channel === CHANNELS.ops)).toHaveLength(5);
  });
});
