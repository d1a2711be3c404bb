// Gate cards in Node with the real installation store over the D1 stand-in: queued only for teams with Slack, a signed trace
// link anchored at the gate, and context only for opted-in policy keys (guard-passed), taken from the real gate.opened.
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { verifyViewToken } from "../../auth/view-token";
import { makeDeps } from "../../deps";
import { ESCALATION_AFTER_MS } from "../gates/escalation";
import { enqueueGateCards } from "./cards";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const {
  call,
  deps: appDeps,
  env,
  eventLog,
  fireAlarm,
  installSlack,
  setClock,
  startRun,
  token,
} = await nodeSlackHelpers();

function recordingDeps() {
  const sent: SlackOutboxMessage[][] = [];
  const deps = makeDeps(env, { slackOutbox: { send: async (m) => void sent.push(m) } });
  return { deps, sent };
}

/** A real hard gate (fail-closed policy key) and its gate.opened event (secrets never get this far: the gate route
 * guards context on write; the card's own guard is tested in cards.unit.test.ts). */
async function openedEvent(teamId: string, policyKey: string) {
  const worker = await token(teamId, ["runs:write", "runs:read"], { sub: "worker" });
  const run = await startRun(worker);
  const res = await call("POST", `/v1/runs/${run.run_id}/gates`, {
    token: worker,
    body: { policy_key: policyKey, op_id: "op-1", context: { amount: 12.5, customer: "Acme Corp" } },
  });
  expect(res.json.status, res.text).toBe("pending");
  const event = (await eventLog(run.run_id)).find((e) => e.type === "gate.opened");
  expect(event).toBeDefined();
  return event;
}

describe("gate cards", () => {
  it("queues nothing for a team without a Slack installation", async () => {
    const { deps, sent } = recordingDeps();
    await enqueueGateCards([await openedEvent("cards-none", "wrong_value")], deps);
    expect(sent).toEqual([]);
  });

  it("queues a private card with a signed trace link anchored at the gate for an installed team", async () => {
    await installSlack("cards-a", "T0CARDSA");
    const event = await openedEvent("cards-a", "wrong_value");
    // the run's gate.opened carries the context; the card does not, as the team did not share wrong_value
    expect(event.context).toEqual({ amount: 12.5, customer: "Acme Corp" });
    const { deps, sent } = recordingDeps();
    await enqueueGateCards([event], deps);
    expect(sent).toHaveLength(1);
    const card = sent[0]?.[0];
    const text = JSON.stringify(card);
    expect(text).not.toContain("Acme");
    expect(text).not.toContain("12.5");
    const url = /<(http[^|>]+)\|View trace>/.exec(text)?.[1] ?? "";
    expect(url).toMatch(new RegExp(`/runs/${event.run_id}/trace\\?view=[\\w.-]+#gate-${event.gate_id}$`));
    const view = await verifyViewToken(env.WARDEN_JWT_SECRET, new URL(url).searchParams.get("view") ?? "", Date.now());
    expect(view.ok && view.value).toMatchObject({ kind: "run", team_id: "cards-a", run_id: event.run_id });
  });

  it("shows the context fields of a policy key the team opted in", async () => {
    await installSlack("cards-b", "T0CARDSB", { share_context: ["budget_review"] });
    const { deps, sent } = recordingDeps();
    await enqueueGateCards([await openedEvent("cards-b", "budget_review")], deps);
    const text = JSON.stringify(sent[0]?.[0]);
    expect(text).toContain("• amount: 12.5");
    expect(text).toContain("• customer: Acme Corp");
  });

  it("turns the run's gate.escalated events into pings threaded under the card, level 2 naming the escalation target", async () => {
    await installSlack("cards-esc", "T0CARDSE", { escalation_target: "S0ONCALL" });
    const worker = await token("cards-esc", ["runs:write", "runs:read"], { sub: "worker" });
    const run = await startRun(worker);
    const t0 = await setClock(run.run_id, Date.now() + 86_400_000);
    await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: worker,
      body: { policy_key: "wrong_value", op_id: "op-1", context: {} },
    });
    await setClock(run.run_id, t0 + ESCALATION_AFTER_MS[2]);
    await fireAlarm(run.run_id);
    const escalated = (await eventLog(run.run_id)).filter((e) => e.type === "gate.escalated");
    expect(escalated.map((e) => e.level)).toEqual([1, 2]);
    const { deps, sent } = recordingDeps();
    await enqueueGateCards(escalated, deps);
    const pings = sent.flat();
    expect(pings.map((m) => m.kind === "post" && [m.key, m.thread_key, m.channel])).toEqual([
      [`escalation:${escalated[0].gate_id}:1`, `gate:${escalated[0].gate_id}`, "approvals"],
      [`escalation:${escalated[0].gate_id}:2`, `gate:${escalated[0].gate_id}`, "approvals"],
    ]);
    expect(pings[1]?.kind === "post" && pings[1].text).toContain("<!subteam^S0ONCALL>");
  });

  it("refuses an escalation target that is not a user-group id (400, nothing stored)", async () => {
    const res = await call("PUT", "/v1/slack/installation", {
      token: await token("cards-esc-bad", ["policy:admin"], { sub: "admin" }),
      body: {
        workspace_id: "T0CARDSX",
        bot_token: "xoxb-1111-2222-abcdefghijkl",
        channels: { control: "C0CTRL", approvals: "C0APPR", feed: "C0FEED", ops: "C0OPS" },
        approvers: [{ slack_user_id: "U0ALICE", subject: "alice", role: "approver" }],
        settings: { escalation_target: "<!channel>" },
      },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain("user-group");
    // no slack_installation row, read through its store: neither installed nor a grant, the workspace unknown
    expect(await appDeps.slackStore.byTeam("cards-esc-bad")).toBeNull();
    expect(await appDeps.slackStore.grantOf("cards-esc-bad")).toBeNull();
    expect(await appDeps.slackStore.workspaceTeam("T0CARDSX")).toBeNull();
  });
});
