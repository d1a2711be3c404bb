// The Acknowledge button on a hard gate's card (in Node, over the D1 and Durable Object stand-ins): a roster member's click records the acknowledgement (audited, channel
// slack) and the card shows who and until when the pings pause; anyone else is told at once and nothing is recorded.
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { interactionBody } from "../../../test/slack-bodies";
import { ACK_ACTION, CARD_VERSION, cardKey } from "./blocks";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const TEAM = "ack-click";
const { call, deps, drainAll, installSlack, recordingApp, signedRequest, startRun, teamTokens } =
  await nodeSlackHelpers();
const cardBlocks = [
  { type: "header", text: { type: "plain_text", text: "Approval needed: wrong_value" } },
  {
    type: "actions",
    block_id: "gate_actions",
    elements: [
      { type: "button", action_id: "gate_approve" },
      { type: "button", action_id: ACK_ACTION },
    ],
  },
];

async function hardGate(opId: string) {
  await installSlack(TEAM, "T0ACKCLICK");
  const t = await teamTokens(TEAM);
  const run = await startRun(t.worker);
  const g = await call("POST", `/v1/runs/${run.run_id}/gates`, {
    token: t.worker,
    body: { policy_key: "wrong_value", op_id: opId },
  });
  await drainAll(); // the D1 gate index the acknowledgement writes to
  return {
    run_id: run.run_id,
    gate_id: g.json.gate_id as string,
    kind: "hard",
    op_id: opId,
    policy_key: "wrong_value",
  };
}

const ackClick = (g: Awaited<ReturnType<typeof hardGate>>, user: string, withMessage = true) =>
  interactionBody({
    type: "block_actions",
    team: { id: "T0ACKCLICK" },
    user: { id: user },
    trigger_id: `trig-${user}`,
    response_url: "https://hooks.slack.com/actions/T0ACKCLICK/1/xyz",
    actions: [{ action_id: ACK_ACTION, value: JSON.stringify(g), action_ts: "1700000000.000200" }],
    ...(withMessage ? { message: { blocks: cardBlocks } } : {}),
  });

/** the gate index row through the gate SLA store (what SQL on the gate table read before) */
const gateRow = async (gateId: string) =>
  (await deps.gateSla.gatesOpenedSince(TEAM, 0, 1000)).filter((g) => g.gate_id === gateId);
const acked = async (gateId: string) => (await gateRow(gateId)).map(({ acked_by }) => ({ acked_by }));
/** the team's audit entries of an action, through the audit log store */
const audited = async (action: string) => (await deps.auditLog.list(TEAM, { action, limit: 1000 })).entries;

describe("the Acknowledge button", () => {
  it("records a roster member's acknowledgement and updates the card: who, and the button gone", async () => {
    const g = await hardGate("op-ack-1");
    const app = recordingApp();
    const res = await app.fetch(await signedRequest("/slack/interactions", ackClick(g, "U0ALICE")));
    expect(res.status).toBe(200);
    expect(await acked(g.gate_id)).toEqual([{ acked_by: "alice" }]);
    const audit = (await audited("gate.acknowledged")).filter((a) => a.subjectId === g.gate_id);
    expect(audit.map((a) => [a.actor, a.metadata?.channel])).toEqual([["alice", "slack"]]);
    const card = app.sent[0] as Extract<SlackOutboxMessage, { kind: "post" }>;
    expect(card).toMatchObject({ kind: "post", key: cardKey(g.gate_id), version: CARD_VERSION.acknowledged });
    const shown = JSON.stringify(card.blocks);
    expect(shown).toContain("*Acknowledged* by <@U0ALICE> (alice)");
    expect(shown).toContain("pings paused until the resolve SLA");
    expect(shown).toContain("gate_approve");
    expect(shown).not.toContain(ACK_ACTION);
    // the gate stays open: acknowledging decides nothing
    expect((await gateRow(g.gate_id)).map(({ status }) => ({ status }))).toEqual([{ status: "pending" }]);
  });

  it("tells a second clicker who acknowledged first, and keeps the first", async () => {
    const g = await hardGate("op-ack-2");
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", ackClick(g, "U0ALICE", false)));
    expect(app.sent[0]).toMatchObject({ kind: "post", key: `ack:${g.gate_id}`, thread_key: cardKey(g.gate_id) });
    await app.fetch(await signedRequest("/slack/interactions", ackClick(g, "U0BOB")));
    expect(app.sent[1]).toMatchObject({
      kind: "respond",
      text: expect.stringMatching(/^Already acknowledged by alice at \d{4}-/),
    });
    expect(await acked(g.gate_id)).toEqual([{ acked_by: "alice" }]);
  });

  it("refuses someone off the roster at once, audited, and records nothing", async () => {
    const g = await hardGate("op-ack-3");
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", ackClick(g, "U0MALLORY")));
    expect(app.sent).toEqual([
      expect.objectContaining({
        kind: "respond",
        text: "You are not on this team's approver roster; nothing was acknowledged.",
      }),
    ]);
    expect(await acked(g.gate_id)).toEqual([{ acked_by: null }]);
    const refused = (await audited("slack.approval_refused")).filter((a) => a.actor === "slack:U0MALLORY");
    expect(refused.map((r) => r.metadata?.action)).toContain(ACK_ACTION);
  });

  it("tells the clicker at once when the gate was already decided", async () => {
    const g = await hardGate("op-ack-4");
    const t = await teamTokens(TEAM);
    await call("POST", `/v1/gates/${g.gate_id}/decision`, {
      token: t.approver,
      body: { decision: "deny", note: "no" },
    });
    await drainAll();
    const app = recordingApp();
    await app.fetch(await signedRequest("/slack/interactions", ackClick(g, "U0ALICE")));
    expect(app.sent).toEqual([
      expect.objectContaining({ kind: "respond", text: expect.stringMatching(/already decided \(denied\)/) }),
    ]);
    expect(await acked(g.gate_id)).toEqual([{ acked_by: null }]);
  });
});
