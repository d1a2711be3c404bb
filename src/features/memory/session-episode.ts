// Pure steps of recording a session episode (session_event.v1): what the guard scans, the stored row, the refusal event.

import type { RefusedWriteEvent } from "../../../contracts/internal-events";
import type { SessionEventV1 } from "../../../contracts/session-event.v1";
import type { SessionEventRow } from "../../ports/memory-store";
import { normalizeFingerprint } from "./activation";
import type { GuardField, GuardVerdict } from "./guard/guard";

/** Every free-text value of an episode, by its path in the body (the guard reports paths, never values). */
export function guardedSessionFields(e: SessionEventV1): GuardField[] {
  return [
    { path: "command", value: e.command },
    { path: "route_id", value: e.route_id },
    { path: "agent_id", value: e.agent_id },
    { path: "session_id", value: e.session_id },
    ...e.diagnostic_codes.map((c, i) => ({ path: `diagnostic_codes[${i}]`, value: c })),
  ];
}

/** The row an accepted episode is stored as: the need fingerprint normalized, absent links as null. */
export function sessionEventRow(
  e: SessionEventV1,
  ids: { id: string; teamId: string; offeredRouteId: string | null },
  now: number,
): SessionEventRow {
  return {
    id: ids.id,
    teamId: ids.teamId,
    sessionKind: e.session_kind,
    command: e.command,
    outcome: e.outcome,
    needFingerprint: normalizeFingerprint(e.need_fingerprint),
    routeId: e.route_id,
    agentId: e.agent_id,
    sessionId: e.session_id,
    diagnosticCodes: e.diagnostic_codes,
    activationId: e.activation_id ?? null,
    routeSource: e.route_source ?? null,
    failureCause: e.failure_cause ?? null,
    episodeIndex: e.episode_index ?? null,
    offeredRouteId: ids.offeredRouteId,
    createdAt: now,
  };
}

/** The memory_store_failed event of a refused episode: rule ids and the session kind, never the values. */
export function sessionRefusedEvent(
  who: { teamId: string; runId?: string | null },
  e: SessionEventV1,
  verdict: Extract<GuardVerdict, { ok: false }>,
  eventId: string,
  now: number,
): RefusedWriteEvent {
  return {
    event_id: eventId,
    type: "memory_store_failed",
    team_id: who.teamId,
    run_id: who.runId ?? null,
    occurred_at: now,
    source: "sessions.events",
    code: verdict.code,
    rule_ids: verdict.ruleIds,
    session_kind: e.session_kind,
  };
}
