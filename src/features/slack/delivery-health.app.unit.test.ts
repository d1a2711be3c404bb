// Slack delivery health in Node over the D1 stand-in (RB-06): N failed deliveries in a row start an approval outage, the
// next success clears it; the SLACK_OUTBOX consumer records both, posting to the loopback Slack API server.
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { nodeLoopbackSlack, nodeSlackWarden } from "../../../test/node-d1/slack";
import { remoteSlackApi } from "../../../test/slack-api-remote";
import { batchOf, CHANNELS, outboxPost } from "../../../test/slack-bodies";
import { createSlackWebApi } from "../../adapters/slack/web-api";
import { makeDeps } from "../../deps";
import { SLACK_OUTAGE_AFTER_FAILURES } from "./domain";
import { backoffSeconds, consumeSlackOutbox } from "./outbox";
import { createD1SlackDeliveryHealth } from "./store/slack-delivery-health";

const { env, installSlack } = await nodeSlackWarden();
const loopback = nodeLoopbackSlack();

const health = () => createD1SlackDeliveryHealth(drizzle(env.DB));

describe("Slack delivery health (store)", () => {
  it("starts the outage at the threshold, keeps its start, and clears it on a success", async () => {
    const h = health();
    for (let i = 1; i < SLACK_OUTAGE_AFTER_FAILURES; i++)
      expect(await h.recordFailure("dh-a", "http_500", 1000 + i)).toEqual({
        consecutive_failures: i,
        outage_since: null,
      });
    const at = 2000;
    expect(await h.recordFailure("dh-a", "http_500", at)).toEqual({
      consecutive_failures: SLACK_OUTAGE_AFTER_FAILURES,
      outage_since: at,
    });
    expect((await h.recordFailure("dh-a", "http_500", at + 1)).outage_since).toBe(at);
    expect(await h.health("dh-b")).toEqual({ consecutive_failures: 0, outage_since: null });
    // the success answers what it cleared, then the team is healthy
    expect((await h.recordSuccess("dh-a", at + 2)).outage_since).toBe(at);
    expect(await h.health("dh-a")).toEqual({ consecutive_failures: 0, outage_since: null });
  });

  it("counts failures only in a row: a success in between restarts the count", async () => {
    const h = health();
    for (let i = 0; i < SLACK_OUTAGE_AFTER_FAILURES - 1; i++) await h.recordFailure("dh-c", "x", 10);
    await h.recordSuccess("dh-c", 11);
    expect(await h.recordFailure("dh-c", "x", 12)).toEqual({ consecutive_failures: 1, outage_since: null });
  });
});

describe("the SLACK_OUTBOX consumer records delivery health", () => {
  it("marks the team in outage after N deliveries the Slack API server answered 500 or 429, and clears it when Slack answers again", async () => {
    const slack = remoteSlackApi("delivery-health", loopback.origin());
    await slack.reset();
    await installSlack("dh-team", "T0DHTEAM");
    const failures = SLACK_OUTAGE_AFTER_FAILURES;
    await slack.script(
      "/api/chat.postMessage",
      ...Array.from({ length: failures }, (_, i) =>
        i % 2 === 0
          ? { status: 500, body: "upstream down" }
          : { status: 429, headers: { "retry-after": "7" }, body: { ok: false, error: "ratelimited" } },
      ),
    );
    const clock = { now: () => 5_000 };
    const deps = makeDeps(env, { slackApi: createSlackWebApi(slack.url), clock });
    const failing = batchOf(Array.from({ length: failures }, (_, i) => outboxPost("dh-team", `k${i}`)));
    await consumeSlackOutbox(failing.batch, deps);
    expect(failing.fates.every((f) => f.retried === 1 && f.acked === 0)).toBe(true);
    // Slack's Retry-After becomes the queue delay of the 429s; the 500s back off on their own
    expect(failing.fates[1]?.delays).toEqual([7]);
    expect(failing.fates[0]?.delays).toEqual([backoffSeconds(1)]);
    expect(await health().health("dh-team")).toEqual({ consecutive_failures: failures, outage_since: 5_000 });

    // the script is used up: the server answers ok, the delivery lands and the outage is over
    const ok = batchOf([outboxPost("dh-team", "k-ok")]);
    await consumeSlackOutbox(ok.batch, deps);
    expect(ok.fates[0]).toMatchObject({ acked: 1, retried: 0 });
    expect(await health().health("dh-team")).toEqual({ consecutive_failures: 0, outage_since: null });
    const posts = (await slack.requests()).filter((r) => r.path === "/api/chat.postMessage");
    expect(posts).toHaveLength(failures + 1);
    expect(posts.every((r) => r.body.channel === CHANNELS.approvals)).toBe(true);
  });
});
