// The one alert path's shell: records operator-alert occurrences (D1, once per id) and queues each (team, kind,
// window)'s ops-channel message with its count on SLACK_OUTBOX, for teams with Slack.
import { log, messageCorrelation, withLogContext } from "../../lib/log";
import { ALERT_WINDOW_MS, alertMessage, alertsOfEvent, coalesceAlerts } from "./alerts";
import type { SlackFeedNeeds } from "./needs";
import type { AlertOccurrence } from "./store/slack-feed-store-port";
import type { SlackInstallation } from "./store/slack-store-port";

export type SlackAlertNeeds = Pick<SlackFeedNeeds, "slackStore" | "slackOutbox" | "slackFeed">;

/**
 * Raises occurrences: recorded first, then the messages queued with the counts D1 answers, so a redelivery (same ids)
 * queues the same count again — an update of the same message, never a second one.
 */
export async function raiseAlerts(occurrences: AlertOccurrence[], deps: SlackAlertNeeds): Promise<void> {
  const installs = new Map<string, SlackInstallation | null>();
  for (const o of occurrences)
    if (!installs.has(o.team_id)) installs.set(o.team_id, await deps.slackStore.byTeam(o.team_id));
  const groups = coalesceAlerts(occurrences.filter((o) => installs.get(o.team_id)));
  if (groups.length === 0) return;
  const counts = await deps.slackFeed.recordAlerts(
    groups.flatMap((g) => g.occurrences.map((o) => ({ ...o, window_start: g.window_start }))),
  );
  await deps.slackOutbox.send(
    groups.map((g) =>
      alertMessage(g, counts.get(`${g.team_id}|${g.kind}|${g.window_start}`) ?? g.occurrences.length, ALERT_WINDOW_MS),
    ),
  );
}

/** The alerts a batch of internal events raises (rollback demotions, budget breaches, dead letters, soft timeouts). */
export async function raiseEventAlerts(
  events: Parameters<typeof alertsOfEvent>[0][],
  deps: SlackAlertNeeds,
): Promise<void> {
  const occurrences = events.flatMap(alertsOfEvent);
  if (occurrences.length) await raiseAlerts(occurrences, deps);
}

/**
 * The SLACK_OUTBOX dead-letter queue: every message Slack never took is logged with its body (to re-send by hand) and
 * raised as a `slack_delivery_failed` alert — except alert messages themselves, which would only loop.
 */
export async function consumeSlackDeadLetters(
  batch: MessageBatch<unknown>,
  deps: SlackAlertNeeds & { clock: { now(): number } },
): Promise<void> {
  const now = deps.clock.now();
  const occurrences: AlertOccurrence[] = [];
  for (const m of batch.messages) {
    withLogContext(messageCorrelation(m.body), () =>
      log.warn("slack outbox: dead letter", { queue: batch.queue, id: m.id, body: m.body }),
    );
    const body = m.body as { kind?: unknown; team_id?: unknown; key?: unknown; channel?: unknown } | null;
    if (typeof body?.team_id !== "string") continue;
    const key = typeof body.key === "string" ? body.key : null;
    if (key?.startsWith("alert:")) continue;
    occurrences.push({
      id: `slack_dead_letter:${m.id}`,
      team_id: body.team_id,
      kind: "slack_delivery_failed",
      at: now,
      detail: key
        ? `the ${String(body.channel)} message \`${key}\` was not delivered after ${m.attempts} attempts`
        : `a response_url answer was not delivered after ${m.attempts} attempts`,
    });
  }
  try {
    await raiseAlerts(occurrences, deps);
    for (const m of batch.messages) m.ack();
  } catch (e) {
    log.error("slack dead letters: alert not raised", { error: String(e) });
    for (const m of batch.messages) m.retry();
  }
}
