// The SLACK_OUTBOX consumer: posts each logical message once (ts recorded before the ack), updates it in place after,
// answers response_urls (within Slack's limit, then by chat.update), turns Slack's 429 Retry-After into a queue retry
// delay, and counts failed deliveries per team: the start and end of an approval outage (RB-06) act from here.
import { log, messageCorrelation, withLogContext } from "../../lib/log";
import { sha256HexSync } from "../../lib/sha256";
import type { Clock } from "../../ports/clock";
import type { SlackApi, SlackApiResult } from "../../ports/slack-api";
import { RESPONSE_URL_MAX_USES, RESPONSE_URL_WINDOW_MS } from "./domain";
import { denyWaitingGates, type OutageSweepNeeds, queueOutageOverAlert } from "./outage";
import type { SlackDeliveryHealth, SlackOutboxMessage, SlackResponseUrls, SlackStore } from "./store/slack-store-port";

export type SlackOutboxNeeds = {
  slackStore: SlackStore;
  slackApi: SlackApi;
  clock: Clock;
  /** where delivery failures per team are counted (approval outage, RB-06); absent = not counted */
  slackHealth?: SlackDeliveryHealth;
  /** response_url uses (Slack's 5 in 30 minutes); absent = not counted */
  slackResponseUrls?: SlackResponseUrls;
} & Partial<Omit<OutageSweepNeeds, "slackHealth">>;

/** Whether a response_url may still be used: at most RESPONSE_URL_MAX_USES times within RESPONSE_URL_WINDOW_MS. */
export const responseUrlUsable = (u: { uses: number; first_used_at: number }, now: number) =>
  u.uses <= RESPONSE_URL_MAX_USES && now - u.first_used_at < RESPONSE_URL_WINDOW_MS;

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
    const use = await deps.slackResponseUrls?.use(sha256HexSync(m.response_url), m.team_id, deps.clock.now());
    if (use && !responseUrlUsable(use, deps.clock.now())) return updateInstead(m, deps, attempts);
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
  // an installation without the channel (an ops channel never set) posts to approvals, where people look
  const channel = m.channel_id ?? (inst.channels[m.channel] || inst.channels.approvals);
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

/**
 * A response_url used up (Slack takes 5 uses within 30 minutes): the message it belongs to is updated with
 * chat.update instead. Without a message to update the answer is dropped and logged; a retry could not fix it.
 */
async function updateInstead(
  m: Extract<SlackOutboxMessage, { kind: "respond" }>,
  deps: SlackOutboxNeeds,
  attempts: number,
): Promise<Outcome> {
  const inst = m.message ? await deps.slackStore.byTeam(m.team_id) : null;
  if (!m.message || !inst) {
    log.warn("slack outbox: response_url used up", { team_id: m.team_id });
    return { done: true };
  }
  const r = await deps.slackApi.call("chat.update", inst.bot_token, { ...m.message, text: m.text });
  return r.ok ? { done: true } : retryOf(r, attempts);
}

/** One batch from SLACK_OUTBOX: ack what was delivered, retry the rest with Slack's delay (or a backoff). */
export async function consumeSlackOutbox(batch: MessageBatch<unknown>, deps: SlackOutboxNeeds): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body as SlackOutboxMessage | null;
    if (!body || (body.kind !== "post" && body.kind !== "respond")) {
      message.ack();
      continue;
    }
    // every line this message's delivery writes carries its team (seed 003 §12)
    await withLogContext(messageCorrelation(body), () => deliverOne(message, body, deps));
  }
}

/** Delivers one outbox message: acked when done, retried with Slack's delay (or a backoff) when not. */
async function deliverOne(message: Message<unknown>, body: SlackOutboxMessage, deps: SlackOutboxNeeds): Promise<void> {
  try {
    const outcome = await deliver(body, deps, message.attempts);
    // a failed health write must not turn a delivered message into a retry (nor count as a Slack failure)
    if (outcome.done || !outcome.waiting)
      await recordHealth(deps, body, outcome.done ? null : outcome.error).catch((e) =>
        log.error("slack outbox: health not recorded", { error: String(e) }),
      );
    if (outcome.done) message.ack();
    else {
      log.warn("slack outbox: retry", { id: message.id, error: outcome.error, delay_s: outcome.delayS });
      message.retry({ delaySeconds: outcome.delayS });
    }
  } catch (e) {
    log.error("slack outbox: failed", { id: message.id, error: String(e) });
    await recordHealth(deps, body, String(e)).catch(() => undefined);
    message.retry({ delaySeconds: backoffSeconds(message.attempts) });
  }
}

/** Counts a team's failed deliveries (cleared by the next success): enough in a row is an approval outage (RB-06). */
async function recordHealth(deps: SlackOutboxNeeds, m: SlackOutboxMessage, error: string | null): Promise<void> {
  if (!deps.slackHealth) return;
  const now = deps.clock.now();
  if (error === null) {
    const cleared = await deps.slackHealth.recordSuccess(m.team_id, now);
    if (cleared.outage_since !== null) {
      const since = cleared.outage_since;
      log.warn("slack outbox: approval outage over", { team_id: m.team_id, since });
      const sweep = sweepNeeds(deps);
      if (sweep) await queueOutageOverAlert(sweep, m.team_id, since, now);
    }
    return;
  }
  const h = await deps.slackHealth.recordFailure(m.team_id, error.slice(0, 500), now);
  if (h.outage_since === now) {
    log.error("slack outbox: approval outage", { team_id: m.team_id, error });
    // the fallback denies gates as they open from now on (gate rule cache); the ones already waiting are denied here
    const sweep = sweepNeeds(deps);
    if (sweep) await denyWaitingGates(sweep, m.team_id, now);
  }
}

/** What the outage's start and end act with, when the consumer was given all of it. */
function sweepNeeds(deps: SlackOutboxNeeds): OutageSweepNeeds | null {
  const { slackHealth, runIndex, runs, slackOutbox } = deps;
  return slackHealth && runIndex && runs && slackOutbox ? { slackHealth, runIndex, runs, slackOutbox } : null;
}
