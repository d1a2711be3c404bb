// Slack's OAuth v2 install in Node over the D1 stand-in, with the loopback Slack server answering oauth.v2.access: the
// signed redirect, every refused callback leaving nothing behind, a good one storing the grant encrypted, then its
// completion. Rows read through the Slack and audit tables (test/node-d1/table-rows.ts).
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CallOptions } from "../../../test/node-d1/app";
import { nodeLoopbackSlack, nodeSlackHelpers } from "../../../test/node-d1/slack";
import { tableRows } from "../../../test/node-d1/table-rows";
import { CHANNELS } from "../../../test/slack-bodies";
import { makeDeps } from "../../deps";
import { auditLog } from "../audit/store/tables";
import { STATE_TTL_MS, signState, verifyState } from "./oauth-state";
import { slackInstallations } from "./store/tables";

const h = await nodeSlackHelpers();
const { call, deps: wardenDeps, env, token } = h;
const recordRows = tableRows(h);
const loopback = nodeLoopbackSlack();

const AUTHORIZE = "https://slack-authorize.test/oauth/v2/authorize";
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const PUBLIC = "https://warden.example.test";
const BOT_TOKEN = "xoxb-9999-8888-oauthgrantedtoken";

/** An app whose Slack base URL is this test's loopback prefix, with OAuth configured and the clock at `clock.t`. */
function oauthApp(configured = true) {
  const slack = loopback.slack();
  const clock = { t: T0 };
  const { decisionObjects, decisionJournal } = wardenDeps;
  const deps = makeDeps(
    {
      ...env,
      SLACK_API_BASE_URL: slack.base,
      SLACK_OAUTH_AUTHORIZE_URL: AUTHORIZE,
      PUBLIC_URL: PUBLIC,
      ...(configured ? { SLACK_CLIENT_ID: "1234.5678", SLACK_CLIENT_SECRET: "client-secret-abc" } : {}),
    } as Env,
    {
      decisionObjects,
      decisionJournal,
      clock: { now: () => clock.t },
      // tokens are minted at the real time; only the install runs on the test's clock
      verifyToken: (t: string) => wardenDeps.verifyToken(t, Date.now()),
    },
  );
  const send = (method: string, path: string, opts: CallOptions = {}) => call(method, path, opts, deps);
  return { slack, clock, deps, send };
}

const admin = (team: string) => token(team, ["policy:admin"], { sub: `admin@${team}` });

/** GET /slack/install as the team's admin → the state in Slack's authorize URL. */
async function startedState(app: ReturnType<typeof oauthApp>, team: string) {
  const res = await app.send("GET", "/slack/install", { token: await admin(team) });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") as string).searchParams.get("state") as string;
}

const callback = (app: ReturnType<typeof oauthApp>, q: Record<string, string>) =>
  app.send("GET", `/slack/oauth/callback?${new URLSearchParams(q)}`);

const granted = (workspace: string, token = BOT_TOKEN) => ({
  status: 200,
  body: {
    ok: true,
    access_token: token,
    token_type: "bot",
    scope: "chat:write,commands",
    bot_user_id: "U0BOT",
    app_id: "A0APP",
    team: { id: workspace, name: "Acme" },
    authed_user: { id: "U0ADMIN" },
  },
});

const stored = (team: string) =>
  recordRows(slackInstallations, eq(slackInstallations.teamId, team), {
    workspace_id: slackInstallations.workspaceId,
    bot_token_enc: slackInstallations.botTokenEnc,
    channels: slackInstallations.channels,
  });
const audits = (team: string) =>
  recordRows(auditLog, and(eq(auditLog.teamId, team), like(auditLog.action, "slack.%")), { action: auditLog.action });

describe("GET /slack/install", () => {
  it("redirects a team admin to Slack's authorize URL with the manifest's scopes, the callback and a signed state", async () => {
    const app = oauthApp();
    const res = await app.send("GET", "/slack/install", { token: await admin("oa-start") });
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get("location") as string);
    expect(`${url.origin}${url.pathname}`).toBe(AUTHORIZE);
    expect(url.searchParams.get("client_id")).toBe("1234.5678");
    expect(url.searchParams.get("scope")).toBe("chat:write,commands,channels:history,groups:history,im:history");
    expect(url.searchParams.get("redirect_uri")).toBe(`${PUBLIC}/slack/oauth/callback`);
    const state = await verifyState(env.WARDEN_JWT_SECRET, url.searchParams.get("state") ?? "", T0);
    expect(state.ok && state.value).toMatchObject({
      team_id: "oa-start",
      subject: "admin@oa-start",
      expires_at: T0 + STATE_TTL_MS,
    });
  });

  it("is refused without a token (401), without policy:admin (403), when not configured (404), once installed (409)", async () => {
    const app = oauthApp();
    expect((await app.send("GET", "/slack/install")).status).toBe(401);
    const reader = await token("oa-start", ["runs:read"]);
    expect((await app.send("GET", "/slack/install", { token: reader })).status).toBe(403);
    const off = await oauthApp(false).send("GET", "/slack/install", { token: await admin("oa-start") });
    expect(off.status).toBe(404);
    expect(off.json.error.message).toContain("SLACK_CLIENT_ID");
    const put = await app.send("PUT", "/v1/slack/installation", {
      token: await admin("oa-installed"),
      body: {
        workspace_id: "T0OAINST",
        bot_token: "xoxb-1111-2222-abcdefghijkl",
        channels: CHANNELS,
        approvers: [{ slack_user_id: "U0ALICE", subject: "alice", role: "admin" }],
      },
    });
    expect(put.status).toBe(200);
    const again = await app.send("GET", "/slack/install", { token: await admin("oa-installed") });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toContain("PUT /v1/slack/installation");
  });
});

describe("GET /slack/oauth/callback", () => {
  it("refuses a forged, tampered, expired or missing state and a missing code with 400: nothing stored, Slack never called", async () => {
    const app = oauthApp();
    const team = "oa-refused";
    const good = await startedState(app, team);
    const forged = await signState("another-secret-0123456789abcdef0123456789", {
      team_id: team,
      subject: "mallory",
      nonce: "n1",
      expires_at: T0 + 60_000,
    });
    const [body, sig] = good.split(".") as [string, string];
    const tampered = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${sig}`;
    const cases: [Record<string, string>, string][] = [
      [{ code: "c1", state: forged }, "signature"],
      [{ code: "c1", state: tampered }, "state"],
      [{ code: "c1", state: "not-a-state" }, "malformed"],
      [{ code: "c1" }, "state is missing"],
      [{ state: good }, "code is missing"],
      [{ state: good, error: "access_denied" }, "access_denied"],
    ];
    for (const [q, why] of cases) {
      const res = await callback(app, q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
      expect(res.json.error.message).toContain(why);
    }
    app.clock.t = T0 + STATE_TTL_MS;
    const expired = await callback(app, { code: "c1", state: good });
    expect(expired.status).toBe(400);
    expect(expired.json.error.message).toContain("expired");
    expect(await app.slack.requests()).toEqual([]);
    expect(await stored(team)).toEqual([]);
    expect(await audits(team)).toEqual([]);
  });

  it("stores the grant with the bot token encrypted, after one oauth.v2.access with the code; a replayed state is refused", async () => {
    const app = oauthApp();
    const team = "oa-good";
    await app.slack.script("oauth.v2.access", granted("T0OAGOOD"));
    const state = await startedState(app, team);
    const res = await callback(app, { code: "code-123", state });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain("T0OAGOOD");

    const calls = await app.slack.requests();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.path).toMatch(/\/api\/oauth\.v2\.access$/);
    expect(Object.fromEntries(new URLSearchParams(calls[0]?.body as string))).toEqual({
      client_id: "1234.5678",
      client_secret: "client-secret-abc",
      code: "code-123",
      redirect_uri: `${PUBLIC}/slack/oauth/callback`,
    });
    const [row] = await stored(team);
    expect(row?.workspace_id).toBe("T0OAGOOD");
    expect(row?.bot_token_enc).not.toContain("oauthgrantedtoken");
    expect(row?.channels).toEqual({});
    expect(await app.deps.slackStore.grantOf(team)).toEqual({
      workspace_id: "T0OAGOOD",
      team_id: team,
      bot_token: BOT_TOKEN,
    });
    // granted, not installed: cards, commands and the outbox keep seeing no installation until channels are set
    expect(await app.deps.slackStore.byTeam(team)).toBeNull();
    expect(await app.deps.slackStore.byWorkspace("T0OAGOOD")).toBeNull();
    expect(await audits(team)).toEqual([{ action: "slack.oauth_granted" }]);

    const replay = await callback(app, { code: "code-123", state });
    expect(replay.status).toBe(400);
    expect(replay.json.error.message).toContain("already used");
    expect(await app.slack.requests()).toHaveLength(1);
  });

  it("Slack answering ok:false → 422 naming Slack's error, nothing stored; the spent state cannot be retried", async () => {
    const app = oauthApp();
    const team = "oa-slack-no";
    await app.slack.script("oauth.v2.access", { status: 200, body: { ok: false, error: "invalid_code" } });
    const state = await startedState(app, team);
    const res = await callback(app, { code: "stale", state });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("rejected");
    expect(res.json.error.message).toContain("invalid_code");
    // Slack down (500) reads the same way: a clear 4xx, never a 5xx
    await app.slack.script("oauth.v2.access", { status: 500, body: "oops" });
    const down = await callback(app, { code: "c2", state: await startedState(app, team) });
    expect(down.status).toBe(422);
    expect(down.json.error.message).toContain("http_500");
    expect((await callback(app, { code: "again", state })).status).toBe(400);
    expect(await app.slack.requests("oauth.v2.access")).toHaveLength(2);
    expect(await stored(team)).toEqual([]);
    expect(await audits(team)).toEqual([]);
  });

  it("refuses a workspace that belongs to another team (409) and leaves that team's installation as it was", async () => {
    const app = oauthApp();
    await app.slack.script("oauth.v2.access", granted("T0OAOWNED"), granted("T0OAOWNED", "xoxb-3333-4444-intruder"));
    expect((await callback(app, { code: "a", state: await startedState(app, "oa-owner") })).status).toBe(200);
    const before = await stored("oa-owner");
    const res = await callback(app, { code: "b", state: await startedState(app, "oa-intruder") });
    expect(res.status).toBe(409);
    expect(res.json.error.message).toContain("another team");
    expect(await stored("oa-owner")).toEqual(before);
    expect(await stored("oa-intruder")).toEqual([]);
    expect((await app.deps.slackStore.grantOf("oa-owner"))?.bot_token).toBe(BOT_TOKEN);
  });

  it("a grant is completed by PUT /v1/slack/installation without bot_token, at once (the team's first install)", async () => {
    const app = oauthApp();
    const team = "oa-complete";
    await app.slack.script("oauth.v2.access", granted("T0OADONE"));
    expect((await callback(app, { code: "c", state: await startedState(app, team) })).status).toBe(200);
    const body = {
      workspace_id: "T0OADONE",
      channels: CHANNELS,
      approvers: [{ slack_user_id: "U0ALICE", subject: "alice", role: "admin" }],
    };
    // another workspace than the granted one has no token here: bot_token required
    const other = await app.send("PUT", "/v1/slack/installation", {
      token: await admin(team),
      body: { ...body, workspace_id: "T0OAELSE" },
    });
    expect(other.status).toBe(400);
    expect(other.json.error.message).toContain("bot_token is required");
    const put = await app.send("PUT", "/v1/slack/installation", { token: await admin(team), body });
    expect(put.status).toBe(200);
    expect(put.json.status).toBe("installed");
    const inst = await app.deps.slackStore.byTeam(team);
    expect(inst).toMatchObject({ workspace_id: "T0OADONE", bot_token: BOT_TOKEN, channels: CHANNELS });
    expect(await app.deps.slackStore.grantOf(team)).toBeNull();
    // a later change needs no bot_token either (the installation's own is kept); it waits behind its gate (202)
    const change = await app.send("PUT", "/v1/slack/installation", {
      token: await admin(team),
      body: { ...body, approvers: [...body.approvers, { slack_user_id: "U0BOB", subject: "bob", role: "approver" }] },
    });
    expect(change.status).toBe(202);
    expect(change.json.status).toBe("pending");
  });
});
