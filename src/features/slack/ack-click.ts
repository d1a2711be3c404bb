// The Acknowledge button of a hard gate's card: a roster member says they are on it (the gate records who and when,
// the escalation pings pause until its resolve SLA); anyone else is told at once; the card shows who acknowledged.

import { acknowledgeGate } from "../gates";
import { ACK_ACTION, acknowledgedBlocks, CARD_VERSION, type CardValue, cardKey, deciderName } from "./blocks";
import { alreadyDecided, approverOf, type Payload, tell } from "./interactions";
import type { SlackNeeds } from "./needs";
import type { SlackInstallation } from "./store/slack-store-port";

const EMPTY = { status: 200 as const, body: null };
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export async function onAckClick(deps: SlackNeeds, inst: SlackInstallation, p: Payload, value: CardValue) {
  const userId = p.user?.id ?? "";
  // any roster member may acknowledge (it decides nothing); the role per gate kind applies to decisions only
  const allowed = await approverOf(deps, inst, userId, { ...value, action: ACK_ACTION }, "approver");
  if (!allowed.ok) {
    await tell(deps, inst.team_id, p, allowed.told);
    return EMPTY;
  }
  const who = { teamId: inst.team_id, subject: allowed.approver.subject, channel: "slack" };
  const acked = await acknowledgeGate(deps, who, value.gate_id, deps.clock.now());
  if (!acked.ok) {
    const decided = await alreadyDecided(deps, { team_id: who.teamId, subject: who.subject }, value);
    await tell(
      deps,
      inst.team_id,
      p,
      decided ?? `Not acknowledged: ${"message" in acked.error ? acked.error.message : acked.error.code}`,
    );
    return EMPTY;
  }
  const a = acked.value;
  if (!a.first) {
    await tell(deps, inst.team_id, p, `Already acknowledged by ${deciderName(a.acked_by)} at ${iso(a.acked_at)}.`);
    return EMPTY;
  }
  const ack = { by: a.acked_by, slack_user_id: userId, at: a.acked_at, resolve_due_at: a.resolve_due_at };
  const text = `Acknowledged by ${a.acked_by}: ${value.policy_key} on run ${value.run_id}`;
  const base = { kind: "post" as const, team_id: inst.team_id, channel: "approvals" as const, text };
  await deps.slackOutbox.send([
    p.message?.blocks?.length
      ? {
          ...base,
          key: cardKey(value.gate_id),
          blocks: acknowledgedBlocks(p.message.blocks, ack),
          version: CARD_VERSION.acknowledged,
        }
      : { ...base, key: `ack:${value.gate_id}`, thread_key: cardKey(value.gate_id) },
  ]);
  return EMPTY;
}
