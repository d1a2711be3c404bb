// The approval outage (RB-06) use-cases: denying the hard gates already waiting when an outage starts, the alert
// queued when Slack is back, and the two-person override of the fallback (docs/slack.md "Approval outage").
import type { AppError } from "../../errors";
import type { Result } from "../../lib/result";
import type { AuditLogStore } from "../../ports/audit-log";
import type { Clock } from "../../ports/clock";
import { denyOpenGates, type SystemDenyNeeds } from "../gates";
import { fallbackDeniesIndexed, fallbackNote, OUTAGE_APPROVER } from "../gates/domain";
import type { ApprovalOutage, OutageOverride, SlackDeliveryHealth, SlackOutbox } from "./store/slack-store-port";

/** The alert lists at most this many denied gates; the count covers all. */
export const ALERT_GATE_LIMIT = 20;
/** An override lasts this long once confirmed unless the request says otherwise. */
export const OVERRIDE_DEFAULT_TTL_MS = 60 * 60_000;
/** A requested override waits this long for its second admin; after that a new request starts over. */
export const OVERRIDE_REQUEST_VALID_MS = 15 * 60_000;

export type OutageSweepNeeds = SystemDenyNeeds & {
  slackHealth: Pick<SlackDeliveryHealth, "fallbackDenials">;
  slackOutbox: SlackOutbox;
};

/**
 * An outage just started: the team's hard gates already waiting are denied by the fallback through their runs (the
 * gate index lists them, oldest first); answers how many. Later ones are denied as they open.
 */
export async function denyWaitingGates(deps: OutageSweepNeeds, teamId: string, since: number): Promise<number> {
  const which = fallbackDeniesIndexed;
  return (await denyOpenGates(deps, teamId, { decider: OUTAGE_APPROVER, note: fallbackNote(since), which })).length;
}

/** The alert's text: the outage's span, how many gates the fallback denied, and the newest of them. */
export function outageOverText(
  since: number,
  now: number,
  denials: Awaited<ReturnType<SlackDeliveryHealth["fallbackDenials"]>>,
): string {
  const span = `${new Date(since).toISOString()} – ${new Date(now).toISOString()}`;
  const head = `:white_check_mark: Slack is reachable again: approval outage ${span} is over; the fallback is off.`;
  if (denials.count === 0) return `${head}\nNo gate was denied by the fallback.`;
  const lines = denials.gates.map((g) => `• run \`${g.run_id}\` gate \`${g.gate_id}\` (${g.policy_key})`);
  const more = denials.count > denials.gates.length ? [`… and ${denials.count - denials.gates.length} more`] : [];
  return [`${head}\nDenied by the fallback (RB-06): ${denials.count} gate(s)`, ...lines, ...more].join("\n");
}

/** Slack is back: queues the alert to the team's ops channel (the outbox falls back to approvals when none is set). */
export async function queueOutageOverAlert(deps: OutageSweepNeeds, teamId: string, since: number, now: number) {
  const denials = await deps.slackHealth.fallbackDenials(teamId, since, ALERT_GATE_LIMIT);
  await deps.slackOutbox.send([
    {
      kind: "post",
      team_id: teamId,
      key: `outage-over:${teamId}:${since}`,
      channel: "ops",
      text: outageOverText(since, now, denials),
    },
  ]);
}

/** The outcome of an admin's override call, decided from the stored outage (pure). */
export type OverrideStep =
  | { kind: "request"; next: OutageOverride }
  | { kind: "confirm"; next: OutageOverride }
  | { kind: "active"; current: OutageOverride }
  | { kind: "refuse"; error: AppError };

/**
 * The two-person rule: the first admin's call records a pending request, a second, different admin's call confirms
 * it; the same admin again is refused. A request left unconfirmed for OVERRIDE_REQUEST_VALID_MS, or an override past
 * its expiry, is replaced by a new request.
 */
export function overrideStep(
  outage: ApprovalOutage | null,
  subject: string,
  req: { reason: string; ttl_ms: number },
  now: number,
): OverrideStep {
  if (!outage) {
    const message = "no approval outage for this team: the fallback is off, there is nothing to override";
    return { kind: "refuse", error: { code: "conflict", message } };
  }
  const cur = outage.override;
  if (cur?.until != null && cur.until > now) return { kind: "active", current: cur };
  if (cur && cur.confirmed_by === null && now - cur.requested_at < OVERRIDE_REQUEST_VALID_MS) {
    if (cur.requested_by === subject) {
      const message = `the override was requested by ${subject}: a second, different admin must confirm it (two-person rule)`;
      return { kind: "refuse", error: { code: "conflict", message } };
    }
    return { kind: "confirm", next: { ...cur, confirmed_by: subject, until: now + cur.ttl_ms } };
  }
  const next = { requested_by: subject, requested_at: now, reason: req.reason, ttl_ms: req.ttl_ms };
  return { kind: "request", next: { ...next, confirmed_by: null, until: null } };
}

export type OverrideNeeds = {
  slackHealth: Pick<SlackDeliveryHealth, "outage" | "writeOverride">;
  auditLog: Pick<AuditLogStore, "append">;
  gateRules: { invalidate(teamId: string): void };
  clock: Clock;
  newId: (prefix: string) => string;
};

export type OverrideState = {
  team_id: string;
  status: "pending" | "active";
  outage_since: number;
  requested_by: string;
  requested_at: number;
  reason: string;
  confirmed_by: string | null;
  expires_at: number | null;
};

const stateOf = (teamId: string, since: number, o: OutageOverride): OverrideState => ({
  team_id: teamId,
  status: o.until === null ? "pending" : "active",
  outage_since: since,
  requested_by: o.requested_by,
  requested_at: o.requested_at,
  reason: o.reason,
  confirmed_by: o.confirmed_by,
  expires_at: o.until,
});

/** POST /v1/slack/outage/override: one admin's call under the two-person rule, audited, written with a guard. */
export async function overrideOutage(
  deps: OverrideNeeds,
  teamId: string,
  subject: string,
  req: { reason: string; ttl_ms: number },
): Promise<Result<OverrideState, AppError>> {
  const now = deps.clock.now();
  const outage = await deps.slackHealth.outage(teamId);
  const step = overrideStep(outage, subject, req, now);
  if (step.kind === "refuse") return { ok: false, error: step.error };
  const since = (outage as ApprovalOutage).since;
  if (step.kind === "active") return { ok: true, value: stateOf(teamId, since, step.current) };
  if (!(await deps.slackHealth.writeOverride(teamId, step.next, outage?.override ?? null, now))) {
    const message = "the outage or its override changed meanwhile (another admin, or Slack is back): read and retry";
    return { ok: false, error: { code: "conflict", message } };
  }
  const confirmed = step.kind === "confirm";
  await deps.auditLog.append([
    {
      id: deps.newId("aud"),
      teamId,
      actor: subject,
      action: confirmed ? "slack.outage.override_confirmed" : "slack.outage.override_requested",
      subjectType: "slack_outage",
      subjectId: teamId,
      metadata: { outage_since: since, ...step.next },
      createdAt: now,
    },
  ]);
  // this isolate's gates see the override at once; other isolates within the rule cache's TTL (1 s)
  if (confirmed) deps.gateRules.invalidate(teamId);
  return { ok: true, value: stateOf(teamId, since, step.next) };
}
