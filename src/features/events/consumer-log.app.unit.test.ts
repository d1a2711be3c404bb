// Queue consumers log each message inside a scope carrying its team and run (seed 003 §12): the EVENTS consumer's
// lines name the events' team and run, the SLACK_OUTBOX consumer's the message's team. In Node over the D1 stand-in.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { messageBatch, runBatch } from "../../../test/fakes/queues";
import { captureLogLines, type LogLine } from "../../../test/log-lines";
import { nodeSlackWarden } from "../../../test/node-d1/slack";
import { batchOf, outboxPost } from "../../../test/slack-bodies";
import { makeDeps } from "../../deps";
import { consumeSlackDeadLetters, consumeSlackOutbox } from "../slack";
import { consumeEvents } from "./consumer";
import { consumeDeadLetters } from "./dead-letters";

const { env, installSlack } = await nodeSlackWarden();

describe("queue consumer log scopes", () => {
  let lines: LogLine[];
  beforeEach(() => {
    lines = captureLogLines();
  });
  afterEach(() => vi.restoreAllMocks());

  it("the EVENTS consumer's line about a malformed event names its team and run", async () => {
    // gate.opened without its required occurred_at: a known type that does not fit its schema
    const body = { event_id: "ev-log-1", type: "gate.opened", team_id: "log-q-team", run_id: "run_log_q" };
    const result = await runBatch((batch) => consumeEvents(batch, makeDeps(env)), "warden-events", [
      { id: "m1", attempts: 1, body },
    ]);
    expect(result.retryMessages).toHaveLength(1);
    const line = lines.find((l) => l.msg === "events consumer: malformed event");
    expect(line).toMatchObject({ team_id: "log-q-team", run_id: "run_log_q", event_id: "ev-log-1" });
  });

  it("the SLACK_OUTBOX consumer's retry line names the message's team", async () => {
    const TEAM = "log-q-slack";
    await installSlack(TEAM, "T0LOGQ");
    const deps = makeDeps(env, {
      slackApi: {
        call: async () => ({ ok: false, retryAfterS: 7, status: 429, error: "ratelimited" }),
        respond: async () => ({ ok: true, body: {} }),
      },
    });
    const b = batchOf([outboxPost(TEAM, "log-q:1")]);
    await consumeSlackOutbox(b.batch, deps);
    expect(b.fates[0]).toMatchObject({ retried: 1, delays: [7] });
    const line = lines.find((l) => l.msg === "slack outbox: retry");
    expect(line).toMatchObject({ team_id: TEAM, error: "ratelimited" });
  });

  it("the dead-letter consumers' lines name the dead message's team and run", async () => {
    const body = { event_id: "ev-log-dl", type: "task.failed", team_id: "log-q-dl", run_id: "run_log_dl" };
    await consumeDeadLetters(messageBatch("warden-events-dlq", [{ id: "d1", attempts: 5, body }]).batch, makeDeps(env));
    expect(lines.find((l) => l.msg === "event dead-lettered")).toMatchObject({
      team_id: "log-q-dl",
      run_id: "run_log_dl",
    });
    const alert = { ...outboxPost("log-q-dl", "alert:log-q"), run_id: "run_log_dl" };
    await consumeSlackDeadLetters(batchOf([alert]).batch, makeDeps(env));
    expect(lines.find((l) => l.msg === "slack outbox: dead letter")).toMatchObject({
      team_id: "log-q-dl",
      run_id: "run_log_dl",
    });
  });
});
