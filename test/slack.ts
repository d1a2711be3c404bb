// Slack test helpers: requests signed as Slack signs them (v0), form and interactivity bodies, an installed team.
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { createApp } from "../src/app";
import { makeDeps } from "../src/deps";
import { call, readResponse, token } from "./helpers";
import {
  installationBody,
  openTraceLinkWith,
  recordingSlack,
  type SignOptions,
  signSlackRequest,
  WORKSPACE,
} from "./slack-bodies";

export {
  batchOf,
  CHANNELS,
  commandBody,
  installationBody,
  interactionBody,
  outboxPost,
  WORKSPACE,
} from "./slack-bodies";

/** A request to /slack/* signed with the test signing secret; `skewS` moves its timestamp from now. */
export function signedRequest(path: string, body: string, opts: SignOptions = {}): Promise<Request> {
  return signSlackRequest(env.SLACK_SIGNING_SECRET as string, path, body, opts);
}

export async function slackCall(path: string, body: string, opts: SignOptions = {}) {
  return readResponse(await SELF.fetch(await signedRequest(path, body, opts)));
}

/** Installs Slack for a team (once per file) over PUT /v1/slack/installation: alice, bob and the gate-opening worker
 * are on the roster, mallory is not. */
export async function installSlack(teamId: string, workspace = WORKSPACE, settings?: Record<string, unknown>) {
  // storage lives for the whole file: a team installed by an earlier test stays installed (a second PUT would be a
  // change waiting behind a slack_channel_change gate)
  if (await makeDeps(env).slackStore.byTeam(teamId)) return { team_id: teamId, status: "installed" };
  const res = await call("PUT", "/v1/slack/installation", {
    token: await token(teamId, ["policy:admin"], { sub: "admin" }),
    body: installationBody(workspace, settings),
  });
  if (res.status !== 200) throw new Error(`install → ${res.status} ${res.text}`);
  return res.json;
}

/**
 * Opens the "View Trace" link of a Slack message text as a browser would (no bearer token, only the link's `?view=`):
 * the trace page's status and the link itself.
 */
export const openTraceLink = (text: string) => openTraceLinkWith(call, text);

/** The app with a recording outbox and Slack client (the real client is tested against a loopback server in Node). */
export function recordingApp() {
  const { sent, apiCalls, overrides } = recordingSlack();
  const deps = makeDeps(env, overrides);
  const app = createApp();
  return {
    sent,
    apiCalls,
    fetch: async (req: Request) => readResponse(await app.fetch(req, { deps }, createExecutionContext())),
  };
}
