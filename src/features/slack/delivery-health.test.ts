// Slack delivery health in workerd with real D1 (RB-06): N failed deliveries in a row start an approval outage, the
// next success clears it; the SLACK_OUTBOX consumer records both.
import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { installSlack } from "../../../test/slack";
import { createD1SlackDeliveryHealth } from "../../adapters/d1/slack-delivery-health";
import { makeDeps } from "../../deps";
import { SLACK_OUTAGE_AFTER_FAILURES, type SlackApi, type SlackOutboxMessage } from "../../ports/slack";
import { consumeSlackOutbox } from "./outbox";

const health = () => createD1SlackDeliveryHealth(drizzle(env.DB));

function batchOf(bodies: SlackOutboxMessage[]) {
  const fates = bodies.map(() => ({ acked: 0, retried: 0 }));
  const messages = bodies.map((body, i) => ({
    id: `m${i}`,
    timestamp: new Date(),
    body,
    attempts: 1,
    ack: () => void (fates[i] as { acked: number }).acked++,
    retry: () => void (fates[i] as { retried: number }).retried++,
  }));
  return { batch: { queue: "warden-slack-outbox", messages } as unknown as MessageBatch<unknown>, fates };
}

const post = (team: string, key: string): SlackOutboxMessage => ({
  kind: "post",
  team_id: team,
  key,
  channel: "approvals",
  text: "hello",
});

/** the Slack client port answering every call with `status` (500: Slack down) */
const slackAnswering = (status: number): SlackApi => ({
  call: async () =>
    status === 200
      ? { ok: true, body: { ok: true, ts: "1.0", channel: "C0APPR" } }
      : { ok: false, retryAfterS: null, status, error: `http_${status}` },
  respond: async () => ({ ok: true, body: {} }),
});

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
  it("marks the team in outage after N deliveries Slack answered 500, and clears it when Slack answers again", async () => {
    await installSlack("dh-team", "T0DHTEAM");
    const clock = { now: () => 5_000 };
    const down = makeDeps(env, { slackApi: slackAnswering(500), clock });
    const failing = batchOf(Array.from({ length: SLACK_OUTAGE_AFTER_FAILURES }, (_, i) => post("dh-team", `k${i}`)));
    await consumeSlackOutbox(failing.batch, down);
    expect(failing.fates.every((f) => f.retried === 1 && f.acked === 0)).toBe(true);
    expect(await health().health("dh-team")).toEqual({
      consecutive_failures: SLACK_OUTAGE_AFTER_FAILURES,
      outage_since: 5_000,
    });
    const up = makeDeps(env, { slackApi: slackAnswering(200), clock });
    const ok = batchOf([post("dh-team", "k-ok")]);
    await consumeSlackOutbox(ok.batch, up);
    expect(ok.fates[0]).toEqual({ acked: 1, retried: 0 });
    expect(await health().health("dh-team")).toEqual({ consecutive_failures: 0, outage_since: null });
  });
});
