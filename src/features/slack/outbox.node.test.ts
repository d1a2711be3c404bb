// The SLACK_OUTBOX consumer with the real Slack client over fetch against a loopback server: 429 → delay, 5xx →
// backoff, exactly one post across redeliveries, updates in place, response_url answers.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SlackApiServer, startSlackApiServer } from "../../../test/slack-api-server";
import { createSlackWebApi } from "../../adapters/slack/web-api";
import { consumeSlackOutbox } from "./outbox";
import type { SlackInstallation, SlackOutboxMessage, SlackStore } from "./store/slack-store-port";

const INSTALL: SlackInstallation = {
  workspace_id: "T111",
  team_id: "team-a",
  bot_token: "xoxb-test-token",
  channels: { control: "CCTRL", approvals: "CAPPR", feed: "CFEED", ops: "COPS" },
  approvers: [],
  settings: {},
};

function memoryStore(): SlackStore & { posted: Map<string, { channel: string; ts: string; version: number }> } {
  const posted = new Map<string, { channel: string; ts: string; version: number }>();
  return {
    posted,
    putInstallation: async () => {},
    proposeChange: async () => 1,
    activateChange: async () => false,
    byWorkspace: async (w) => (w === INSTALL.workspace_id ? INSTALL : null),
    byTeam: async (t) => (t === INSTALL.team_id ? INSTALL : null),
    firstDelivery: async () => true,
    forgetDelivery: async () => {},
    postedMessage: async (k) => posted.get(k) ?? null,
    recordPosted: async (m) => {
      posted.set(m.key, { channel: m.channel, ts: m.ts, version: m.version });
    },
  };
}

type Fate = { acked: number; retried: { delaySeconds?: number }[] };
function batchOf(bodies: SlackOutboxMessage[], attempts = 1) {
  const fates: Fate[] = bodies.map(() => ({ acked: 0, retried: [] }));
  const messages = bodies.map((body, i) => ({
    id: `m${i}`,
    timestamp: new Date(),
    body,
    attempts,
    ack: () => {
      (fates[i] as Fate).acked++;
    },
    retry: (o?: { delaySeconds?: number }) => {
      (fates[i] as Fate).retried.push(o ?? {});
    },
  }));
  return { batch: { queue: "warden-slack-outbox", messages } as unknown as MessageBatch<unknown>, fates };
}

const card = (version = 1, text = "gate opened"): SlackOutboxMessage => ({
  kind: "post",
  team_id: "team-a",
  key: "gate:g1",
  channel: "approvals",
  text,
  blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
  version,
});

let server: SlackApiServer;
let store: ReturnType<typeof memoryStore>;
let deps: Parameters<typeof consumeSlackOutbox>[1];

beforeEach(async () => {
  server = await startSlackApiServer();
  store = memoryStore();
  deps = { slackStore: store, slackApi: createSlackWebApi(server.url), clock: { now: () => 1_700_000_000_000 } };
});
afterEach(() => server.close());

describe("consumeSlackOutbox", () => {
  it("posts a card to the team's channel with the bot token and records its ts", async () => {
    const { batch, fates } = batchOf([card()]);
    await consumeSlackOutbox(batch, deps);
    expect(fates[0]).toEqual({ acked: 1, retried: [] });
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req?.path).toBe("/api/chat.postMessage");
    expect(req?.headers.authorization).toBe("Bearer xoxb-test-token");
    expect(req?.body).toMatchObject({ channel: "CAPPR", text: "gate opened" });
    expect(store.posted.get("gate:g1")?.ts).toMatch(/^1700000000\./);
  });

  it("retries a 429 after Slack's Retry-After, then posts exactly one message", async () => {
    server.script("/api/chat.postMessage", { status: 429, headers: { "retry-after": "7" }, body: { ok: false } });
    const first = batchOf([card()]);
    await consumeSlackOutbox(first.batch, deps);
    expect(first.fates[0]).toEqual({ acked: 0, retried: [{ delaySeconds: 7 }] });
    const second = batchOf([card()], 2);
    await consumeSlackOutbox(second.batch, deps);
    expect(second.fates[0]?.acked).toBe(1);
    expect(server.requests.filter((r) => r.path === "/api/chat.postMessage")).toHaveLength(2);
    expect(store.posted.size).toBe(1);
  });

  it("backs off on a 500 without Retry-After and on an unreachable server", async () => {
    server.script("/api/chat.postMessage", { status: 500, body: "boom" });
    const { batch, fates } = batchOf([card()], 2);
    await consumeSlackOutbox(batch, deps);
    expect(fates[0]?.retried).toEqual([{ delaySeconds: 20 }]);
    const down = { ...deps, slackApi: createSlackWebApi("http://127.0.0.1:9/api/") };
    const again = batchOf([card()]);
    await consumeSlackOutbox(again.batch, down);
    expect(again.fates[0]?.retried).toEqual([{ delaySeconds: 5 }]);
    expect(store.posted.size).toBe(0);
  });

  it("updates instead of reposting when the queue redelivers a message already posted", async () => {
    await consumeSlackOutbox(batchOf([card()]).batch, deps);
    const redelivered = batchOf([card()], 2);
    await consumeSlackOutbox(redelivered.batch, deps);
    expect(redelivered.fates[0]?.acked).toBe(1);
    expect(server.requests.map((r) => r.path)).toEqual(["/api/chat.postMessage", "/api/chat.update"]);
    expect(server.requests[1]?.body).toMatchObject({ channel: "CAPPR", ts: store.posted.get("gate:g1")?.ts });
  });

  it("updates a card in place when its gate is decided, and a late older version changes nothing", async () => {
    await consumeSlackOutbox(batchOf([card(1)]).batch, deps);
    await consumeSlackOutbox(batchOf([card(2, "approved by alice")]).batch, deps);
    await consumeSlackOutbox(batchOf([card(1)]).batch, deps);
    expect(server.requests.map((r) => r.path)).toEqual(["/api/chat.postMessage", "/api/chat.update"]);
    expect(server.requests[1]?.body).toMatchObject({ text: "approved by alice" });
  });

  it("answers a response_url ephemerally and acks a message for a team without Slack", async () => {
    const { batch, fates } = batchOf([
      { kind: "respond", team_id: "team-a", response_url: `${server.url}respond/1`, text: "not on the roster" },
      { ...card(), team_id: "team-without-slack" } as SlackOutboxMessage,
    ]);
    await consumeSlackOutbox(batch, deps);
    expect(fates.map((f) => f.acked)).toEqual([1, 1]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      path: "/api/respond/1",
      body: { response_type: "ephemeral", text: "not on the roster" },
    });
  });
});
