// The run feed's shell: takes a batch's run events into each run's stored feed (D1) and queues the thread's messages
// on SLACK_OUTBOX, for teams with Slack and runs not muted. Never posts inline.

import {
  FEED_STATUS_STEPS,
  type FeedEvent,
  feedRootMessage,
  feedStatusMessage,
  feedStepOf,
  mergeFeedSteps,
  notableMessage,
} from "./feed";
import { signedRunLink } from "./links";
import type { SlackFeedNeeds } from "./needs";
import type { FeedRun, FeedStep } from "./store/slack-feed-store-port";
import type { SlackInstallation, SlackOutboxMessage } from "./store/slack-store-port";

/** Tries of the compare-and-set on a run's feed before the batch is retried (another consumer kept winning). */
const SAVE_TRIES = 3;

/** Whether a step is new to the stored steps: not among them, and not older than a full window keeps. */
const isFresh = (kept: FeedStep[], step: FeedStep) =>
  !kept.some((k) => k.seq === step.seq) && !(kept.length >= FEED_STATUS_STEPS && step.seq < (kept[0]?.seq ?? 0));

/**
 * One run's events into its feed: the messages are sent before the new state is saved, so a failure anywhere retries
 * the events with nothing lost; a redelivered step is not fresh and sends nothing.
 */
async function feedRun(runId: string, events: FeedEvent[], deps: SlackFeedNeeds): Promise<void> {
  const teamId = events[0]?.team_id ?? "";
  const pairs = events.flatMap((e) => {
    const step = feedStepOf(e);
    return step ? [{ e, step }] : [];
  });
  for (let tries = 1; ; tries++) {
    const stored: FeedRun | null = await deps.slackFeed.feedRun(runId);
    const kept = stored?.steps ?? [];
    const fresh = pairs.filter((p) => isFresh(kept, p.step));
    if (fresh.length === 0) return;
    const steps = mergeFeedSteps(
      kept,
      fresh.map((p) => p.step),
    );
    const version = (stored?.version ?? 0) + fresh.length;
    if (!stored?.muted) {
      const run = { team_id: teamId, run_id: runId };
      const out: SlackOutboxMessage[] = [];
      // the root opens the thread with the run's first steps (run.started stays in the run object: no queue message)
      if ((stored?.version ?? 0) === 0)
        out.push(feedRootMessage(run, fresh[0]?.step.order_id, await signedRunLink(deps, teamId, runId)));
      out.push(feedStatusMessage(run, steps, version));
      for (const { e } of fresh) {
        const notable = notableMessage(e);
        if (notable) out.push(notable);
      }
      await deps.slackOutbox.send(out);
    }
    const saved = await deps.slackFeed.saveFeedRun(
      { run_id: runId, team_id: teamId, steps, version },
      stored ? stored.version : null,
      deps.clock.now(),
    );
    if (saved) return;
    if (tries >= SAVE_TRIES) throw new Error(`slack feed: run ${runId} kept changing under this consumer`);
  }
}

/** Takes the run events of a batch into their runs' feeds, for teams with a Slack installation. */
export async function enqueueRunFeed(events: FeedEvent[], deps: SlackFeedNeeds): Promise<void> {
  const byRun = new Map<string, FeedEvent[]>();
  for (const e of events) {
    if (typeof e.run_id !== "string" || typeof e.seq !== "number") continue;
    byRun.set(e.run_id, [...(byRun.get(e.run_id) ?? []), e]);
  }
  const installs = new Map<string, SlackInstallation | null>();
  for (const [runId, runEvents] of byRun) {
    const teamId = runEvents[0]?.team_id ?? "";
    if (!installs.has(teamId)) installs.set(teamId, await deps.slackStore.byTeam(teamId));
    if (!installs.get(teamId)) continue;
    await feedRun(runId, runEvents, deps);
  }
}
