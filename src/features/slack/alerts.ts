// Operator alerts (pure): occurrences from the EVENTS consumer and the dead-letter queues → one ops-channel message per
// team, kind and window, its count updated in place (RB-05: coalesce, do not flood).

import type { SlackPost } from "./feed";
import type { AlertKind, AlertOccurrence } from "./store/slack-feed-store-port";

/** One alert message per kind per this window (wall-clock aligned, UTC). */
export const ALERT_WINDOW_MS = 15 * 60_000;

const TITLES: Record<AlertKind, string> = {
  rollback_demotion: "Rollback-matrix demotions",
  dead_letters: "Run dead letters",
  budget_breach: "Budget breaches",
  soft_gate_timeout: "Soft-gate timeouts",
  queue_dead_letters: "Queue dead letters (EVENTS)",
  slack_delivery_failed: "Slack delivery failures",
  gate_ack_sla_breach: "Gates not acknowledged within their SLA",
  gate_resolve_sla_breach: "Gates not decided within their SLA",
  board_backpressure: "Work board backpressure (new work refused)",
  board_token_rate: "Work board over its token rate (new leases wait)",
  board_persona_waiting: "Work board: a disabled persona's items waiting",
};

/** The start of the window `at` falls in. */
export const windowStartOf = (at: number, windowMs = ALERT_WINDOW_MS) => at - (((at % windowMs) + windowMs) % windowMs);

/** The outbox key of a (team, kind, window)'s message: one message, updated with each new count. */
export const alertKey = (teamId: string, kind: AlertKind, windowStart: number) =>
  `alert:${teamId}:${kind}:${windowStart}`;

export type AlertGroup = {
  team_id: string;
  kind: AlertKind;
  window_start: number;
  /** the distinct occurrences of this batch in the group */
  occurrences: AlertOccurrence[];
};

/**
 * Groups occurrences by (team, kind, window): an id seen twice counts once (the first report wins), groups come in
 * first-seen order, each group's occurrences in time order.
 */
export function coalesceAlerts(occurrences: AlertOccurrence[], windowMs = ALERT_WINDOW_MS): AlertGroup[] {
  const seen = new Set<string>();
  const groups = new Map<string, AlertGroup>();
  for (const o of occurrences) {
    if (seen.has(o.id)) continue;
    seen.add(o.id);
    const window_start = windowStartOf(o.at, windowMs);
    const key = alertKey(o.team_id, o.kind, window_start);
    const group = groups.get(key) ?? { team_id: o.team_id, kind: o.kind, window_start, occurrences: [] };
    group.occurrences.push(o);
    groups.set(key, group);
  }
  for (const g of groups.values()) g.occurrences.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  return [...groups.values()];
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * The ops-channel message of a group whose window now holds `count` occurrences (the content version, so a late
 * smaller count never overwrites a larger one).
 */
export function alertMessage(group: AlertGroup, count: number, windowMs = ALERT_WINDOW_MS): SlackPost {
  const latest = group.occurrences.at(-1);
  const span = `${hhmm(group.window_start)}–${hhmm(group.window_start + windowMs)} UTC`;
  return {
    kind: "post",
    team_id: group.team_id,
    key: alertKey(group.team_id, group.kind, group.window_start),
    channel: "ops",
    text: `:rotating_light: *${TITLES[group.kind]}*: ${count} in ${span} (team \`${group.team_id}\`)${latest ? `\nLatest: ${latest.detail}` : ""}`,
    metadata: {
      event_type: "warden_alert",
      event_payload: { team_id: group.team_id, kind: group.kind, window_start: group.window_start, count },
    },
    version: count,
  };
}

type EventLike = { type: string; event_id: string; team_id: string; occurred_at: number } & Record<string, unknown>;
const s = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "?");

/** The alerts an internal event raises (pure): none for most. */
export function alertsOfEvent(e: EventLike): AlertOccurrence[] {
  const base = { team_id: e.team_id, at: e.occurred_at };
  const where = `run \`${s(e.run_id)}\`${e.order_id ? ` order \`${s(e.order_id)}\`` : ""}`;
  const out: AlertOccurrence[] = [];
  if (e.type === "policy.rollback")
    out.push({
      ...base,
      id: `rollback:${e.event_id}`,
      kind: "rollback_demotion",
      detail: `${s(e.trigger_id)}: ${s(e.metric)} = ${s(e.value)} over ${s(e.sample)} (threshold ${s(e.threshold)}) → mode ${s(e.from)} lowered to ${s(e.to)}`,
    });
  if (e.type === "task.failed" && e.failure_class === "budget_exceeded")
    out.push({ ...base, id: `budget:${e.event_id}`, kind: "budget_breach", detail: `${where} refused over budget` });
  if (e.type === "task.failed" && e.next === "dead_letter")
    out.push({
      ...base,
      id: `dead_letter:${e.event_id}`,
      kind: "dead_letters",
      detail: `${where} dead-lettered (${s(e.reason_code)}, ${s(e.failure_class)})`,
    });
  if (e.type === "gate.decided" && e.kind === "soft" && (e.channel === "timer" || e.outcome === "timed_out"))
    out.push({
      ...base,
      id: `soft_timeout:${e.event_id}`,
      kind: "soft_gate_timeout",
      detail: `gate \`${s(e.gate_id)}\` (${s(e.policy_key)}) on ${where} timed out: ${s(e.status)}`,
    });
  return out;
}
