// Slack test helpers: requests signed as Slack signs them (v0), form and interactivity bodies, an installed team.
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { createApp } from "../src/app";
import { makeDeps } from "../src/deps";
import { slackSignature } from "../src/features/slack/signature";
import type { SlackOutboxMessage } from "../src/features/slack/store/slack-store-port";
import type { SlackApiResult } from "../src/ports/slack-api";
import { call, readResponse, token } from "./helpers";

export const WORKSPACE = "T0TEAMA";
export const CHANNELS = { control: "C0CTRL", approvals: "C0APPR", feed: "C0FEED", ops: "C0OPS" };

/** A request to /slack/* signed with the test signing secret; `skewS` moves its timestamp from now. */
export async function signedRequest(
  path: string,
  body: string,
  opts: { skewS?: number; secret?: string; headers?: Record<string, string>; contentType?: string } = {},
): Promise<Request> {
  const ts = String(Math.floor(Date.now() / 1000) + (opts.skewS ?? 0));
  const sig = await slackSignature(opts.secret ?? (env.SLACK_SIGNING_SECRET as string), ts, body);
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

export async function slackCall(path: string, body: string, opts: Parameters<typeof signedRequest>[2] = {}) {
  return readResponse(await SELF.fetch(await signedRequest(path, body, opts)));
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

/** Installs Slack for a team (once per file) over PUT /v1/slack/installation: alice, bob and the gate-opening worker
 * are on the roster, mallory is not. */
export async function installSlack(teamId: string, workspace = WORKSPACE, settings?: Record<string, unknown>) {
  // storage lives for the whole file: a team installed by an earlier test stays installed (a second PUT would be a
  // change waiting behind a slack_channel_change gate)
  const installed = await env.DB.prepare("SELECT team_id FROM slack_installation WHERE team_id = ?")
    .bind(teamId)
    .first();
  if (installed) return { team_id: teamId, status: "installed" };
  const res = await call("PUT", "/v1/slack/installation", {
    token: await token(teamId, ["policy:admin"], { sub: "admin" }),
    body: {
      workspace_id: workspace,
      bot_token: "xoxb-1111-2222-abcdefghijkl",
      channels: CHANNELS,
      approvers: [
        { slack_user_id: "U0ALICE", subject: "alice", role: "approver" },
        { slack_user_id: "U0BOB", subject: "bob", role: "admin" },
        { slack_user_id: "U0WORKER", subject: "worker", role: "approver" },
      ],
      ...(settings ? { settings } : {}),
    },
  });
  if (res.status !== 200) throw new Error(`install → ${res.status} ${res.text}`);
  return res.json;
}

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

/**
 * Opens the "View Trace" link of a Slack message text as a browser would (no bearer token, only the link's `?view=`):
 * the trace page's status and the link itself.
 */
export async function openTraceLink(text: string) {
  const link = /<(http[^|>]+)\|View [Tt]race>/.exec(text)?.[1];
  if (!link) throw new Error(`no View Trace link in: ${text}`);
  const url = new URL(link);
  const page = await call("GET", `${url.pathname}${url.search}`);
  return { link, status: page.status, text: page.text };
}

/** The app with a recording outbox and Slack client (the real client is tested against a loopback server in Node). */
export function recordingApp() {
  const sent: SlackOutboxMessage[] = [];
  const apiCalls: { method: string; body: any }[] = [];
  const ok: SlackApiResult = { ok: true, body: { ok: true } };
  const deps = makeDeps(env, {
    slackOutbox: { send: async (m) => void sent.push(...m) },
    slackApi: {
      call: async (method, _token, body) => {
        apiCalls.push({ method, body });
        return ok;
      },
      respond: async (_url, body) => {
        apiCalls.push({ method: "respond", body });
        return ok;
      },
    },
  });
  const app = createApp();
  return {
    sent,
    apiCalls,
    fetch: async (req: Request) => readResponse(await app.fetch(req, { deps }, createExecutionContext())),
  };
}
