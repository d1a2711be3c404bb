// Slack test bodies for workerd and Node alike: signed /slack/* requests, form and interactivity bodies, the test
// installation, SLACK_OUTBOX batches and posts.
import { slackSignature } from "../src/features/slack/signature";
import type { SlackOutboxMessage } from "../src/features/slack/store/slack-store-port";
import type { SlackApiResult } from "../src/ports/slack-api";

export const WORKSPACE = "T0TEAMA";
export const CHANNELS = { control: "C0CTRL", approvals: "C0APPR", feed: "C0FEED", ops: "C0OPS" };

export type SignOptions = { skewS?: number; secret?: string; headers?: Record<string, string>; contentType?: string };

/** A request to /slack/* signed as Slack signs it with `secret` (or opts.secret); `skewS` moves its timestamp. */
export async function signSlackRequest(
  secret: string,
  path: string,
  body: string,
  opts: SignOptions = {},
): Promise<Request> {
  const ts = String(Math.floor(Date.now() / 1000) + (opts.skewS ?? 0));
  const sig = await slackSignature(opts.secret ?? secret, ts, body);
  return new Request(`https://warden.test${path}`, {
    method: "POST",
    headers: {
      "content-type": opts.contentType ?? "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": ts,
      "x-slack-signature": sig,
      ...opts.headers,
    },
    body,
  });
}

export const commandBody = (text: string, user = "U0ALICE", team = WORKSPACE, trigger = crypto.randomUUID()) =>
  new URLSearchParams({
    token: "legacy-unused",
    team_id: team,
    team_domain: "acme",
    channel_id: CHANNELS.control,
    user_id: user,
    user_name: user.toLowerCase(),
    command: "/warden",
    text,
    response_url: "https://hooks.slack.com/commands/T0TEAMA/1/abc",
    trigger_id: trigger,
  }).toString();

export const interactionBody = (payload: unknown) =>
  new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

/** The note modal's submission (callback `gate_note`) by `user`; `values` is the modal's state by block and action. */
export const noteSubmission = (user: string, privateMetadata: string, values: Record<string, unknown>) => ({
  type: "view_submission",
  team: { id: WORKSPACE },
  user: { id: user },
  view: { callback_id: "gate_note", private_metadata: privateMetadata, state: { values } },
});

/** PUT /v1/slack/installation's body for the test workspace: alice, bob and the gate-opening worker on the roster. */
export const installationBody = (workspace = WORKSPACE, settings?: Record<string, unknown>) => ({
  workspace_id: workspace,
  bot_token: "xoxb-1111-2222-abcdefghijkl",
  channels: CHANNELS,
  approvers: [
    { slack_user_id: "U0ALICE", subject: "alice", role: "approver" },
    { slack_user_id: "U0BOB", subject: "bob", role: "admin" },
    { slack_user_id: "U0WORKER", subject: "worker", role: "approver" },
  ],
  ...(settings ? { settings } : {}),
});

/** A SLACK_OUTBOX batch for calling the consumer directly: what happened to each message (acks, retries, delays). */
export function batchOf(bodies: SlackOutboxMessage[]) {
  const fates = bodies.map(() => ({ acked: 0, retried: 0, delays: [] as (number | undefined)[] }));
  const messages = bodies.map((body, i) => ({
    id: `m${i}`,
    timestamp: new Date(),
    body,
    attempts: 1,
    ack: () => void (fates[i] as { acked: number }).acked++,
    retry: (o?: { delaySeconds?: number }) => {
      const f = fates[i] as (typeof fates)[number];
      f.retried++;
      f.delays.push(o?.delaySeconds);
    },
  }));
  return { batch: { queue: "warden-slack-outbox", messages } as unknown as MessageBatch<unknown>, fates };
}

/** A plain outbox post to a team's approvals channel (delivery-health and outage tests). */
export const outboxPost = (team: string, key: string): SlackOutboxMessage => ({
  kind: "post",
  team_id: team,
  key,
  channel: "approvals",
  text: "hello",
});

/** A recording SLACK_OUTBOX and Slack Web API client (deps overrides) for recordingApp in workerd and Node. */
export function recordingSlack() {
  const sent: SlackOutboxMessage[] = [];
  const apiCalls: { method: string; body: any }[] = [];
  const ok: SlackApiResult = { ok: true, body: { ok: true } };
  const overrides = {
    slackOutbox: { send: async (m: SlackOutboxMessage[]) => void sent.push(...m) },
    slackApi: {
      call: async (method: string, _token: string, body: any) => {
        apiCalls.push({ method, body });
        return ok;
      },
      respond: async (_url: string, body: any) => {
        apiCalls.push({ method: "respond", body });
        return ok;
      },
    },
  };
  return { sent, apiCalls, overrides };
}

/** Opens the View Trace link of a Slack message's text as a browser would (no token) through `call`: its status. */
export async function openTraceLinkWith(
  call: (method: string, path: string) => Promise<{ status: number; text: string }>,
  text: string,
) {
  const link = /<(http[^|>]+)\|View [Tt]race>/.exec(text)?.[1];
  if (!link) throw new Error(`no View Trace link in: ${text}`);
  const url = new URL(link);
  const page = await call("GET", `${url.pathname}${url.search}`);
  return { link, status: page.status, text: page.text };
}
