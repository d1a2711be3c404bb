// The Slack pings of a hard gate left open (pure): level 1 re-pings the approvers, level 2 calls the escalation target
// (a user group mentioned in the card's thread, or a channel posted to with a link to the card); the per-team timings.
import { createTeamCache } from "../../lib/team-cache";
import { cardKey, type GateCardFacts } from "./blocks";
import type { SlackOutboxMessage, SlackStore } from "./store/slack-store-port";

/** A Slack user-group id: the level-2 ping mentions it in the card's thread. */
export const USER_GROUP_ID = /^S[A-Z0-9]{2,20}$/;
/** A channel id (public C…, private G…): the level-2 ping is posted there, linking to the card. */
export const CHANNEL_ID = /^[CG][A-Z0-9]{2,20}$/;
/** The installation setting `escalation_target`: a user group or a channel. */
export const ESCALATION_TARGET = /^[SCG][A-Z0-9]{2,20}$/;

/** Minutes after a hard gate opened at which levels 1 and 2 fall due, when the team set none (docs/slack.md). */
export const DEFAULT_ESCALATION_MINUTES: readonly [number, number] = [15, 60];
/** The bounds of `settings.escalation_minutes`: 1 ≤ first < second ≤ one day. */
export const ESCALATION_MINUTES_MAX = 1440;

/** `settings.escalation_minutes` as the run object keeps it on a gate: [level 1, level 2] in ms after opening. */
export const escalationAfterMs = (minutes: readonly [number, number] | undefined): [number, number] | null =>
  minutes ? [minutes[0] * 60_000, minutes[1] * 60_000] : null;

/** How long the run object keeps a team's escalation timings: a settings change reaches new gates within a minute. */
export const ESCALATION_TIMINGS_TTL_MS = 60_000;

/** The run engine's per-isolate cache of each team's escalation timings (RunEngineNeeds.escalationTimings). */
export const createEscalationTimingsCache = (store: Pick<SlackStore, "byTeam">, ttlMs = ESCALATION_TIMINGS_TTL_MS) =>
  createTeamCache(
    async (teamId) => escalationAfterMs((await store.byTeam(teamId))?.settings.escalation_minutes),
    ttlMs,
  );

/**
 * One message per gate and level (its key), so a redelivered event updates the same message instead of pinging
 * twice: threaded under the gate's card in the approvals channel, except a level 2 whose target is a channel, which is
 * posted in that channel with a link to the card (the outbox resolves `link_key` to the card's permalink).
 */
export function escalationMessage(
  f: GateCardFacts,
  level: 1 | 2,
  escalationTarget: string | undefined,
): SlackOutboxMessage {
  const key = `escalation:${f.gate_id}:${level}`;
  const waiting = `the hard gate ${f.policy_key} on run ${f.run_id} is still waiting for a decision (escalation level ${level}). <${f.trace_link}|Open the trace>`;
  const base = { kind: "post" as const, team_id: f.team_id, key, channel: "approvals" as const };
  if (level === 2 && escalationTarget && CHANNEL_ID.test(escalationTarget))
    return { ...base, channel_id: escalationTarget, link_key: cardKey(f.gate_id), text: `Escalation: ${waiting}` };
  const who =
    level === 1
      ? "Approvers"
      : escalationTarget && USER_GROUP_ID.test(escalationTarget)
        ? `<!subteam^${escalationTarget}>`
        : "Escalation (no escalation target set for this team)";
  return { ...base, thread_key: cardKey(f.gate_id), text: `${who}: ${waiting}` };
}
