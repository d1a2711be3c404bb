// Escalation at the team's own timings, end to end in Node (D1, Durable Object and queue stand-ins): the installation's escalation_minutes reach the run's
// alarm through the engine's cache; the pings go through the SLACK_OUTBOX consumer to the loopback Slack server — a
// channel target gets a post linking to the card, a user group a mention in the card's thread.
import { describe, expect, it } from "vitest";
import { nodeLoopbackSlack, nodeSlackHelpers } from "../../../test/node-d1/slack";
import { CHANNELS } from "../../../test/slack-bodies";
import { createSlackWebApi } from "../../adapters/slack/web-api";
import { makeDeps } from "../../deps";
import { enqueueGateCards } from "./cards";
import { consumeSlackOutbox } from "./outbox";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const MIN = 60_000;
const { call, env, eventLog, fireAlarm, installSlack, scheduledAlarm, setClock, startRun, teamTokens } =
  await nodeSlackHelpers();
const loopback = nodeLoopbackSlack();

/** Opens a hard gate on a fresh run of the team; returns the gate id and when it opened (the run's clock). */
async function openHardGate(team: string) {
  const t = await teamTokens(team);
  const run = await startRun(t.worker);
  const t0 = await setClock(run.run_id, Date.now() + 86_400_000);
  const opened = await call("POST", `/v1/runs/${run.run_id}/gates`, {
    token: t.worker,
    body: { op_id: "op-esc", policy_key: "wrong_value", context: {} },
  });
  expect(opened.json.kind).toBe("hard");
  return { run_id: run.run_id, gate_id: opened.json.gate_id as string, t0 };
}

/** Fires the run's alarm at each time in turn, checking the alarm was armed for exactly that time. */
async function escalateAt(runId: string, times: number[]) {
  for (const at of times) {
    expect(await scheduledAlarm(runId)).toBe(at);
    await setClock(runId, at - 1000);
    await fireAlarm(runId);
    await setClock(runId, at);
    await fireAlarm(runId);
  }
  return (await eventLog(runId)).filter((e) => e.type === "gate.escalated" || e.type === "gate.opened");
}

/** The run's gate events → the cards and pings the EVENTS consumer queues → the outbox consumer → loopback Slack. */
async function deliverToSlack(events: any[], permalink?: string) {
  const slack = loopback.slack();
  if (permalink) await slack.script("chat.getPermalink", { status: 200, body: { ok: true, permalink } });
  const deps = makeDeps(env, { slackApi: createSlackWebApi(slack.base) });
  const sent: SlackOutboxMessage[] = [];
  await enqueueGateCards(events, { ...deps, slackOutbox: { send: async (m) => void sent.push(...m) } });
  // one at a time, in order: the card is posted (its ts recorded) before the pings that thread under or link to it
  for (const body of sent) {
    const batch = {
      queue: "warden-slack-outbox",
      messages: [{ id: "m", timestamp: new Date(), body, attempts: 1, ack: () => {}, retry: () => {} }],
    } as unknown as MessageBatch<unknown>;
    await consumeSlackOutbox(batch, deps);
  }
  return slack;
}

describe("escalation at the team's timings", () => {
  it("a channel target: levels at 2 and 5 minutes; level 2 is posted in that channel with a link to the card", async () => {
    await installSlack("esc-chan", "T0ESCCHAN", { escalation_target: "C0ESCAL", escalation_minutes: [2, 5] });
    const g = await openHardGate("esc-chan");
    const events = await escalateAt(g.run_id, [g.t0 + 2 * MIN, g.t0 + 5 * MIN]);
    expect(events.filter((e) => e.type === "gate.escalated").map((e) => [e.level, e.occurred_at])).toEqual([
      [1, g.t0 + 2 * MIN],
      [2, g.t0 + 5 * MIN],
    ]);
    expect(await scheduledAlarm(g.run_id)).toBeNull();

    const link = "https://acme.slack.com/archives/C0APPR/p1700000000000001";
    const slack = await deliverToSlack(events, link);
    const posts = await slack.requests("chat.postMessage");
    expect(posts.map((r) => r.body.channel)).toEqual([CHANNELS.approvals, CHANNELS.approvals, "C0ESCAL"]);
    const [card, level1, level2] = posts.map((r) => r.body);
    const cardTs = level1.thread_ts as string;
    expect(cardTs).toMatch(/^\d+\.\d+$/);
    expect(card.thread_ts).toBeUndefined();
    expect(level2.thread_ts).toBeUndefined();
    expect(level2.text).toContain("escalation level 2");
    expect(level2.text).toContain(`<${link}|View the card>`);
    const permalinks = await slack.requests("chat.getPermalink");
    expect(permalinks.map((r) => r.body)).toEqual([{ channel: CHANNELS.approvals, message_ts: cardTs }]);
  });

  it("a user group: levels at 1 and 3 minutes; level 2 mentions the group in the card's thread", async () => {
    await installSlack("esc-group", "T0ESCGRP", { escalation_target: "S0ONCALL", escalation_minutes: [1, 3] });
    const g = await openHardGate("esc-group");
    const events = await escalateAt(g.run_id, [g.t0 + MIN, g.t0 + 3 * MIN]);
    const slack = await deliverToSlack(events);
    const posts = (await slack.requests("chat.postMessage")).map((r) => r.body);
    expect(posts.map((p) => p.channel)).toEqual([CHANNELS.approvals, CHANNELS.approvals, CHANNELS.approvals]);
    expect(posts[2].thread_ts).toBe(posts[1].thread_ts);
    expect(posts[2].text).toContain("<!subteam^S0ONCALL>");
    expect(posts[1].text).not.toContain("subteam");
    expect(await slack.requests("chat.getPermalink")).toEqual([]);
  });

  it("a team without escalation_minutes keeps the defaults (15 and 60 minutes)", async () => {
    await installSlack("esc-default", "T0ESCDEF", { escalation_target: "S0ONCALL" });
    const g = await openHardGate("esc-default");
    const events = await escalateAt(g.run_id, [g.t0 + 15 * MIN, g.t0 + 60 * MIN]);
    expect(events.filter((e) => e.type === "gate.escalated")).toHaveLength(2);
  });
});
