// Slack in Node tests: nodeWarden with the Slack secrets (and the queue stand-in), an installed test team, signed
// /slack/* requests through the app, and the loopback Slack Web API server started by the test file itself.
import { afterAll, beforeAll, expect } from "vitest";
import { createSlackWebApi } from "../../src/adapters/slack/web-api";
import { type Deps, makeDeps } from "../../src/deps";
import { consumeEvents } from "../../src/features/events/consumer";
import { consumeSlackOutbox } from "../../src/features/slack/outbox";
import type { SlackOutboxMessage } from "../../src/features/slack/store/slack-store-port";
import type { WardenEvent } from "../../src/ports/event-bus";
import { runBatch } from "../fakes/queues";
import { type SlackApiServer, startSlackApiServer } from "../slack-api-server";
import { installationBody, recordingSlack, type SignOptions, signSlackRequest, WORKSPACE } from "../slack-bodies";
import { type LoopbackSlack, loopbackSlack } from "../slack-loopback";
import { helpersOver, type NodeWardenOptions, nodeWarden } from "./app";
import { deliverBatch } from "./consumers";

const SLACK_SIGNING_SECRET = "node-slack-signing-secret-0123456789";
/** the Slack secrets; SLACK_API_BASE_URL points nowhere unless a test passes its loopback base */
export const NODE_SLACK_VARS = {
  SLACK_SIGNING_SECRET,
  SLACK_TOKEN_KEY: "node-slack-token-key-0123456789abcdef0123",
  SLACK_API_BASE_URL: "http://127.0.0.1:9/api/",
};

/** nodeWarden with Slack configured: `installSlack`, `signedRequest`, `send` (a Request through the app) besides. */
export async function nodeSlackWarden(opts: NodeWardenOptions = {}) {
  const w = await nodeWarden({ queues: true, ...opts, vars: { ...NODE_SLACK_VARS, ...opts.vars } });
  const send = w.fetch;
  const signedRequest = (path: string, body: string, o: SignOptions = {}) =>
    signSlackRequest(SLACK_SIGNING_SECRET, path, body, o);
  return {
    ...w,
    send,
    signedRequest,
    slackCall: async (path: string, body: string, o: SignOptions = {}) => send(await signedRequest(path, body, o)),
    /** test/slack.ts' recordingApp over this warden's env: what the app sent to SLACK_OUTBOX and the Slack API */
    recordingApp() {
      const { sent, apiCalls, overrides } = recordingSlack();
      const { decisionObjects, decisionJournal } = w.deps;
      const deps = makeDeps(w.env, { decisionObjects, decisionJournal, ...overrides });
      return { sent, apiCalls, fetch: (req: Request) => send(req, deps) };
    },
    /** PUT /v1/slack/installation for the team, once (a second PUT would wait behind a slack_channel_change gate) */
    async installSlack(teamId: string, workspace = WORKSPACE, settings?: Record<string, unknown>) {
      if (await w.deps.slackStore.byTeam(teamId)) return { team_id: teamId, status: "installed" };
      const res = await w.call("PUT", "/v1/slack/installation", {
        token: await w.token(teamId, ["policy:admin"], "admin"),
        body: installationBody(workspace, settings),
      });
      if (res.status !== 200) throw new Error(`install → ${res.status} ${res.text}`);
      return res.json;
    },
  };
}

/**
 * Starts the loopback Slack Web API server for this file (stopped after it): its `origin()`, and `slack()`, a test's
 * own prefix on it (test/slack-loopback.ts).
 */
export function nodeLoopbackSlack(): { origin: () => string; slack: () => LoopbackSlack } {
  let server: SlackApiServer | undefined;
  beforeAll(async () => {
    server = await startSlackApiServer();
  });
  afterAll(() => server?.close());
  const origin = () => {
    if (!server) throw new Error("the loopback Slack server is not started yet (use it inside a test)");
    return new URL(server.url).origin;
  };
  return { origin, slack: () => loopbackSlack(origin()) };
}

/** nodeHelpers (run helpers, `token` as test/helpers.ts takes it) over a nodeSlackWarden, with its Slack helpers. */
export async function nodeSlackHelpers(opts: NodeWardenOptions = {}) {
  const w = await nodeSlackWarden(opts);
  const { installSlack, recordingApp, send, signedRequest, slackCall } = w;
  return { ...helpersOver(w), installSlack, recordingApp, send, signedRequest, slackCall };
}

/**
 * The Slack feed and card tests' harness: deps over the warden's env whose EVENTS publishes and SLACK_OUTBOX sends are
 * recorded (one entry per send) and whose Slack client calls `slackBase` (the loopback server); `deliver` hands bodies
 * to the EVENTS consumer with these deps, `flush` runs every send not yet delivered through the real outbox consumer,
 * one queue batch per send, and expects none retried.
 */
export function outboxHarness(w: { depsWith: (o?: Partial<Deps>) => Deps }, slackBase: string) {
  const published: WardenEvent[] = [];
  const sent: SlackOutboxMessage[][] = [];
  const deps = w.depsWith({
    events: { publish: async (e) => void published.push(...e) },
    slackOutbox: { send: async (m) => void sent.push(m) },
    slackApi: createSlackWebApi(slackBase),
  });
  let delivered = 0;
  let n = 0;
  const flush = async () => {
    for (; delivered < sent.length; delivered++) {
      const messages = (sent[delivered] ?? []).map((body) => ({ id: `out${++n}`, body, attempts: 1 }));
      const result = await runBatch((b) => consumeSlackOutbox(b, deps), "warden-slack-outbox", messages);
      expect(result.retryMessages).toEqual([]);
    }
  };
  return {
    deps,
    published,
    sent,
    flush,
    deliver: (bodies: unknown[], attempts = 1) =>
      deliverBatch("warden-events", bodies, attempts, (batch) => consumeEvents(batch, deps)),
    posts: () => sent.flat() as Extract<SlackOutboxMessage, { kind: "post" }>[],
  };
}
