// The SLACK_OUTBOX consumer: posts each logical message once (ts recorded before the ack), updates it in place after,
// answers response_urls, and turns Slack's 429 Retry-After into a queue retry delay.
import type { Clock } from "../../ports/clock";
import type { SlackApi, SlackApiResult, SlackDeliveryHealth, SlackOutboxMessage, SlackStore } from "../../ports/slack";

export type SlackOutboxNeeds = {
  slackStore: SlackStore;
  slackApi: SlackApi;
  clock: Clock;
  /** where delivery failures per team are counted (approval outage, RB-06); absent = not counted */
  slackHealth?: SlackDeliveryHealth;
};

/** Queue retry delay when Slack gave no Retry-After: 5 s, 20 s, 80 s … capped at 15 min. */
export const backoffSeconds = (attempts: number) => Math.min(900, 5 * 4 ** Math.max(0, attempts - 1));

type Outcome = { done: true } | { done: false; delayS: number; error: string; waiting?: true };

/** A reply whose thread root is not posted yet waits this long, this many deliveries, then is posted unthreaded. */
export const THREAD_WAIT = { delayS: 5, attempts: 3 };

const retryOf = (r: Extract<SlackApiResult, { ok: false }>, attempts: number): Outcome => ({
  done: false,
  delayS: r.retryAfterS ?? backoffSeconds(attempts),
  error: r.error,
});

async function deliver(m: SlackOutboxMessage, deps: SlackOutboxNeeds, attempts: number): Promise<Outcome> {
  if (m.kind === "respond") {
    const r = await deps.slackApi.respond(m.response_url, {
      response_type: "ephemeral",
      text: m.text,
      ...(m.replace_original === undefined ? {} : { replace_original: m.replace_original }),
    });
    return r.ok ? { done: true } : retryOf(r, attempts);
  }
  const inst = await deps.slackStore.byTeam(m.team_id);
  // Nobody to post to (the installation was removed after the message was queued): nothing a retry could fix.
  if (!inst) return { done: true };
  const version = m.version ?? 0;
  const content = { text: m.text, ...(m.blocks ? { blocks: m.blocks } : {}) };
  const posted = await deps.slackStore.postedMessage(m.key);
  if (posted) {
    // Already posted (a later event or a redelivery): update in place, never repost; an older version changes nothing.
    if (version < posted.version) return { done: true };
    const r = await deps.slackApi.call("chat.update", inst.bot_token, {
      channel: posted.channel,
      ts: posted.ts,
      ...content,
    });
    if (!r.ok) return retryOf(r, attempts);
    await deps.slackStore.recordPosted(
      { key: m.key, teamId: m.team_id, channel: posted.channel, ts: posted.ts, version },
      deps.clock.now(),
    );
    return { done: true };
  }
  const channel = m.channel_id ?? inst.channels[m.channel];
  const thread = m.thread_key ? await deps.slackStore.postedMessage(m.thread_key) : null;
  // the root was queued with it but is not posted yet (a 429, another batch): wait for it rather than land outside
  // the thread; not a Slack failure, so not counted against the team's delivery health
  if (m.thread_key && !thread && attempts < THREAD_WAIT.attempts)
    return { done: false, delayS: THREAD_WAIT.delayS, error: "thread root not posted yet", waiting: true };
  const link = m.link_key ? await permalink(deps, inst.bot_token, m.link_key) : null;
  const r = await deps.slackApi.call("chat.postMessage", inst.bot_token, {
    channel,
    ...content,
    ...(link ? { text: `${m.text} <${link}|View the card>` } : {}),
    ...(thread ? { thread_ts: thread.ts } : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
  });
  if (!r.ok) return retryOf(r, attempts);
  const ts = String(r.body.ts ?? "");
  const postedChannel = String(r.body.channel ?? channel);
  // Recorded before the ack: a redelivery of this message finds it and updates instead of posting again.
  await deps.slackStore.recordPosted(
    { key: m.key, teamId: m.team_id, channel: postedChannel, ts, version },
    deps.clock.now(),
  );
  return { done: true };
}

/** The permalink of a posted message (chat.getPermalink, no scope needed); best effort: null leaves the link out. */
async function permalink(deps: SlackOutboxNeeds, token: string, key: string): Promise<string | null> {
  const posted = await deps.slackStore.postedMessage(key);
  if (!posted) return null;
  const r = await deps.slackApi.call("chat.getPermalink", token, { channel: posted.channel, message_ts: posted.ts });
  return r.ok && typeof r.body.permalink === "string" ? r.body.permalink : null;
}

/** One batch from SLACK_OUTBOX: ack what was delivered, retry the rest with Slack's delay (or a backoff). */
export async function consumeSlackOutbox(batch: MessageBatch<unknown>, deps: SlackOutboxNeeds): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body as SlackOutboxMessage | null;
    if (!body || (body.kind !== "post" && body.kind !== "respond")) {
      message.ack();
      continue;
    }
    try {
      const outcome = await deliver(body, deps, message.attempts);
      // a failed health write must not turn a delivered message into a retry (nor count as a Slack failure)
      if (outcome.done || !outcome.waiting)
        await recordHealth(deps, body, outcome.done ? null : outcome.error).catch((e) =>
          console.error(JSON.stringify({ level: "error", msg: "slack outbox: health not recorded", error: String(e) })),
        );
      if (outcome.done) message.ack();
      else {
        console.warn(
          JSON.stringify({
            level: "warn",
            msg: "slack outbox: retry",
            id: message.id,
            error: outcome.error,
            delay_s: outcome.delayS,
          }),
        );
        message.retry({ delaySeconds: outcome.delayS });
      }
    } catch (e) {
      console.error(JSON.stringify({ level: "error", msg: "slack outbox: failed", id: message.id, error: String(e) }));
      await recordHealth(deps, body, String(e)).catch(() => undefined);
      message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}

/** Counts a team's failed deliveries (cleared by the next success): enough in a row is an approval outage (RB-06). */
async function recordHealth(deps: SlackOutboxNeeds, m: SlackOutboxMessage, error: string | null): Promise<void> {
  if (!deps.slackHealth) return;
  const now = deps.clock.now();
  if (error === null) {
    const cleared = await deps.slackHealth.recordSuccess(m.team_id, now);
    if (cleared.outage_since !== null)
      console.warn(
        JSON.stringify({
          level: "warn",
          msg: "slack outbox: approval outage over",
          team_id: m.team_id,
          since: cleared.outage_since,
        }),
      );
    return;
  }
  const h = await deps.slackHealth.recordFailure(m.team_id, error.slice(0, 500), now);
  if (h.outage_since === now)
    console.error(JSON.stringify({ level: "error", msg: "slack outbox: approval outage", team_id: m.team_id, error }));
}
