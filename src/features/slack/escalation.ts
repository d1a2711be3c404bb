// The Slack pings of a hard gate left open (pure): level 1 re-pings the approvers, level 2 calls the escalation target.
import type { SlackOutboxMessage } from "../../ports/slack";
import { cardKey, type GateCardFacts } from "./blocks";

/** A Slack user-group id (the installation setting `escalation_target`), mentioned by the level-2 ping. */
export const USER_GROUP_ID = /^S[A-Z0-9]{2,20}$/;

/**
 * One message per gate and level (its key), posted in the thread of the gate's card in the approvals channel, so a
 * redelivered event updates the same message instead of pinging twice.
 */
export function escalationMessage(
  f: GateCardFacts,
  level: 1 | 2,
  escalationTarget: string | undefined,
): SlackOutboxMessage {
  const who =
    level === 1
      ? "Approvers"
      : escalationTarget
        ? `<!subteam^${escalationTarget}>`
        : "Escalation (no escalation target set for this team)";
  const text = `${who}: the hard gate ${f.policy_key} on run ${f.run_id} is still waiting for a decision (escalation level ${level}). <${f.trace_link}|Open the trace>`;
  return {
    kind: "post",
    team_id: f.team_id,
    key: `escalation:${f.gate_id}:${level}`,
    channel: "approvals",
    thread_key: cardKey(f.gate_id),
    text,
  };
}
