// gate.acknowledged on the EVENTS bus: an acknowledgement made through the API or CLI, for the Slack card to show it.
import type { EventInput } from "../../../contracts/internal-events";
import { log } from "../../lib/log";
import type { EventBus } from "../../ports/event-bus";
import { callRun, type RunActor, type RunsService } from "../runs";
import type { GateAckAnswer } from "./ack";

export type AckAnnounceNeeds = { runs: RunsService; events: EventBus };

/**
 * Publishes gate.acknowledged for a first acknowledgement made outside Slack: the Slack feature's consumer updates the
 * gate's card in place, as the Acknowledge button does (the button updates the card it was clicked on itself, so its
 * path publishes nothing). The event carries the gate's card facts, read from the run, as gate.opened does, so the card
 * is rebuilt whole. Best effort: the acknowledgement is already recorded and answered; a failure here only leaves the
 * card as it was, and is logged.
 */
export async function announceAcknowledgement(
  deps: AckAnnounceNeeds,
  actor: RunActor,
  teamId: string,
  ack: GateAckAnswer & { channel: string },
): Promise<void> {
  try {
    const gate = (await callRun(deps.runs, ack.run_id, "get_gate", { actor, gate_id: ack.gate_id })).value;
    const event: EventInput<"gate.acknowledged"> = {
      event_id: `gate.acknowledged:${ack.gate_id}`,
      type: "gate.acknowledged",
      team_id: teamId,
      occurred_at: ack.acked_at,
      run_id: ack.run_id,
      gate_id: ack.gate_id,
      op_id: gate.op_id,
      policy_key: gate.policy_key,
      kind: gate.kind,
      rule_id: gate.rule_id,
      opened_by: gate.opened_by,
      deadline_at: gate.deadline_at ?? null,
      digest: gate.digest,
      context: gate.context,
      acked_by: ack.acked_by,
      acked_at: ack.acked_at,
      resolve_due_at: ack.resolve_due_at,
      channel: ack.channel,
    };
    await deps.events.publish([event]);
  } catch (e) {
    log.warn("gate acknowledgement: card update not announced", {
      team_id: teamId,
      run_id: ack.run_id,
      gate_id: ack.gate_id,
      error: String(e),
    });
  }
}
