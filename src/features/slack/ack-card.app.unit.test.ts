// An acknowledgement through the API (POST /v1/gates/:gate_id/ack) updates the gate's Slack card in place: the gates
// feature publishes gate.acknowledged, the EVENTS consumer queues the card, the real SLACK_OUTBOX consumer and Slack
// client send chat.update of the stored card ts to the loopback Slack server — in Node (run object, D1 and queue
// stand-ins; the loopback server started by this file).
//
// The runs live in a team without Slack and their events are handed over as another, installed team's (as in
// feed.test.ts), so what the loopback server receives here is only what these tests fed in.
import { beforeAll, describe, expect, it } from "vitest";
import { isQueuedRunEvent } from "../../../contracts/internal-events";
import { nodeLoopbackSlack, nodeSlackHelpers, outboxHarness } from "../../../test/node-d1/slack";
import { CHANNELS } from "../../../test/slack-bodies";
import type { LoopbackSlack } from "../../../test/slack-loopback";
import type { WardenEvent } from "../../ports/event-bus";
import { cardKey } from "./blocks";

const loopback = nodeLoopbackSlack();
const warden = await nodeSlackHelpers();
const { call, deps: appDeps, drainAll, eventLog, installSlack, send, startRun, teamTokens } = warden;
/** this file's own prefix on the loopback Slack server */
let slack: LoopbackSlack;
beforeAll(() => {
  slack = loopback.slack();
});

/** Deps whose EVENTS publishes and SLACK_OUTBOX sends are recorded, and whose Slack client calls the loopback server. */
function harness() {
  const h = outboxHarness(warden, slack.base);
  const ack = (tok: string, gateId: string) =>
    send(
      new Request(`https://warden.test/v1/gates/${gateId}/ack`, {
        method: "POST",
        headers: { authorization: `Bearer ${tok}` },
      }),
      h.deps,
    );
  return { ...h, ack };
}

const asTeam = <T extends { team_id: string }>(events: T[], teamId: string) =>
  events.map((e) => ({ ...e, team_id: teamId }));

/** A hard gate opened in `src` (no Slack); its gate.opened event, to hand over as an installed team's. */
async function hardGate(src: string, opId: string) {
  const t = await teamTokens(src);
  const run = await startRun(t.worker);
  const g = await call("POST", `/v1/runs/${run.run_id}/gates`, {
    token: t.worker,
    body: { policy_key: "wrong_value", op_id: opId },
  });
  expect(g.json).toMatchObject({ kind: "hard", status: "pending" });
  await drainAll(); // the D1 gate index the acknowledgement writes to
  const opened = (await eventLog(run.run_id)).filter(isQueuedRunEvent).filter((e) => e.type === "gate.opened");
  expect(opened).toHaveLength(1);
  return { t, runId: run.run_id, gateId: g.json.gate_id as string, opened };
}

const acknowledgements = (published: WardenEvent[]) => published.filter((e) => e.type === "gate.acknowledged");
const calls = async (method: string) => (await slack.requests(method)).map((r) => r.body as Record<string, unknown>);
/** The messages posted to, or updated in, the approvals channel (gate.opened also feeds the run feed's channel). */
const approvals = async (method: string) => (await calls(method)).filter((b) => b.channel === CHANNELS.approvals);

describe("an API acknowledgement and the gate's Slack card", () => {
  it("updates the posted card in place (chat.update of its ts) naming the acknowledger; a second ack posts nothing", async () => {
    const TEAM = "ack-card-a";
    await installSlack(TEAM, "T0ACKCARDA");
    const h = harness();
    const { t, runId, gateId, opened } = await hardGate("ack-card-src-a", "op-card-1");
    expect((await h.deliver(asTeam(opened, TEAM))).retried).toEqual([]);
    await h.flush();
    const card = await appDeps.slackStore.postedMessage(cardKey(gateId));
    expect(card?.channel).toBe(CHANNELS.approvals);
    expect(await approvals("chat.update")).toEqual([]);

    const first = await h.ack(t.approver, gateId);
    expect(first.status, first.text).toBe(200);
    const events = acknowledgements(h.published);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ run_id: runId, gate_id: gateId, acked_by: "approver-ack-card-src-a" });
    expect((await h.deliver(asTeam(events, TEAM))).retried).toEqual([]);
    await h.flush();

    const updates = await approvals("chat.update");
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ channel: card?.channel, ts: card?.ts });
    expect(String(updates[0]?.text)).toContain("Acknowledged by approver-ack-card-src-a");
    const blocks = JSON.stringify(updates[0]?.blocks);
    expect(blocks).toContain("*Acknowledged* by approver-ack-card-src-a");
    expect(blocks).not.toContain('"gate_ack"'); // the Acknowledge button is gone, the decisions stay
    expect(blocks).toContain('"gate_approve"');
    expect(blocks).toContain("Approval needed: wrong_value"); // the card keeps what it asks and why
    expect(await approvals("chat.postMessage")).toHaveLength(1); // the card itself, never a second message

    // a second acknowledgement (already acknowledged) answers the first and announces nothing
    const again = await h.ack(t.admin, gateId);
    expect(again.status).toBe(200);
    expect(again.json.acked_by).toBe("approver-ack-card-src-a");
    expect(acknowledgements(h.published)).toHaveLength(1);
    expect(await approvals("chat.update")).toHaveLength(1);
  });

  it("an acknowledgement of a gate without a posted card posts nothing", async () => {
    const TEAM = "ack-card-b";
    await installSlack(TEAM, "T0ACKCARDB");
    const h = harness();
    const before = (await slack.requests()).length; // this file's loopback requests so far (the first test's)
    const { t, gateId } = await hardGate("ack-card-src-b", "op-card-2");
    // the gate's card was never posted (its gate.opened is not delivered here)
    const res = await h.ack(t.approver, gateId);
    expect(res.status).toBe(200);
    const events = acknowledgements(h.published);
    expect(events).toHaveLength(1);
    expect((await h.deliver(asTeam(events, TEAM))).retried).toEqual([]);
    await h.flush();
    expect(h.sent).toEqual([]);
    expect((await slack.requests()).slice(before)).toEqual([]);
    expect(await appDeps.slackStore.postedMessage(cardKey(gateId))).toBeNull();
  });
});
