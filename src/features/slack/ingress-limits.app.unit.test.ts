// /slack/* in Node (nodeSlackWarden over the D1 stand-in): the `slack` rate-limit class per Slack user and team (429 with RateLimit headers, no
// effect), and signing-secret rotation (current and previous secret both accepted, any other refused).
import { describe, expect, it } from "vitest";
import { readResponse } from "../../../test/http";
import { executionContext } from "../../../test/node-d1/app";
import { nodeSlackWarden } from "../../../test/node-d1/slack";
import { commandBody } from "../../../test/slack-bodies";
import { createMemoryRateLimiter } from "../../adapters/ratelimit/memory";
import { createApp } from "../../app";
import { type Deps, makeDeps } from "../../deps";
import { DEFAULT_LIMITS } from "../../http/rate-limits";

const { env, installSlack, signedRequest } = await nodeSlackWarden();

function app(overrides: Partial<Deps>) {
  const deps = makeDeps(env, overrides);
  const a = createApp();
  return async (req: Request) => readResponse(await a.fetch(req, { deps }, executionContext().ctx));
}

describe("slack rate-limit class", () => {
  it("limits a Slack user's commands per minute with 429 and RateLimit headers; another user is unaffected", async () => {
    await installSlack("sl-a", "T0SLA");
    const limits = { ...DEFAULT_LIMITS, slack: { perTeam: 10, perSubject: 2, periodS: 60 } };
    const fetch = app({
      rateLimiter: createMemoryRateLimiter(),
      limits: {
        enabled: true,
        preauthPerMinute: 100,
        team: { forTeam: async () => limits, invalidate: () => {}, defaults: limits },
      },
    });
    const help = (user: string) => signedRequest("/slack/commands", commandBody("help", user, "T0SLA"));
    const first = await fetch(await help("U0ALICE"));
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toContain("slack-subject");
    expect((await fetch(await help("U0ALICE"))).status).toBe(200);
    const limited = await fetch(await help("U0ALICE"));
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await fetch(await help("U0BOB"))).status).toBe(200);
  });
});

describe("signing secret rotation", () => {
  it("accepts requests signed with the current or the previous secret and refuses any other", async () => {
    const previous = "previous-signing-secret-0123456789";
    const fetch = app({
      config: { ...makeDeps(env).config, SLACK_SIGNING_SECRET_PREVIOUS: previous },
    });
    const body = JSON.stringify({ type: "url_verification", challenge: "c1" });
    const json = { contentType: "application/json" };
    expect((await fetch(await signedRequest("/slack/events", body, json))).status).toBe(200);
    expect((await fetch(await signedRequest("/slack/events", body, { ...json, secret: previous }))).status).toBe(200);
    const other = await fetch(
      await signedRequest("/slack/events", body, { ...json, secret: "not-a-secret-we-know-000" }),
    );
    expect(other.status).toBe(401);
    // without the previous secret configured, its signatures are refused again
    const after = app({})(await signedRequest("/slack/events", body, { ...json, secret: previous }));
    expect((await after).status).toBe(401);
  });
});
