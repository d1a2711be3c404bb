// Independent subscribers over the D1 stand-in in Node: a failing or slow Slack feed never holds learning, and a retry
// skips learning.
import { describe, expect, it } from "vitest";
import { runCompleted } from "../../../test/learning-events";
import { nodeTestDeps } from "../../../test/node-d1/consumers";
import { EVENT_SUBSCRIBERS, type Subscriber, type SubscriberTable } from "./consumer";

const NOW = Date.UTC(2026, 10, 27, 12);

/** learning's own run.completed subscriber, counting the events it is handed */
function countedLearning() {
  const real = EVENT_SUBSCRIBERS["run.completed"][0] as Subscriber<"run.completed">;
  const seen: string[] = [];
  const learning: Subscriber<"run.completed"> = {
    name: real.name,
    apply: (events, deps, ctx) => {
      seen.push(...events.map((e) => e.event_id));
      return real.apply(events, deps, ctx);
    },
  };
  return { learning, seen };
}

type Warden = Awaited<ReturnType<typeof nodeTestDeps>>;
/** the team's policy-memory success counts, through the learning feature's reader */
const successCounts = async (w: Warden, team: string) =>
  (await w.deps.policyMemory.snapshot(team, NOW)).entries.map((e) => e.success_count);
/** the subscribers a retried event's delivery keys name */
const deliveryKeys = async (w: Warden, eventId: string) => [
  ...((await w.deps.eventDeliveries.deliveredAmong([eventId])).get(eventId) ?? []),
];

describe("independent subscribers", () => {
  it("applies learning although the feed fails, and the retry reaches the feed only", async () => {
    const w = await nodeTestDeps(NOW);
    const { learning, seen } = countedLearning();
    let feedCalls = 0;
    let feedDown = true;
    const feed: Subscriber<"run.completed"> = {
      name: "slack.feed",
      async apply() {
        feedCalls++;
        if (feedDown) throw new Error("slack store down");
        return undefined;
      },
    };
    const table: SubscriberTable = { ...EVENT_SUBSCRIBERS, "run.completed": [learning, feed] };
    const body = runCompleted("team-sub", "run-1", [{ skill: "s", outcome: "success" }], NOW);

    expect(await w.deliver([body], 1, table)).toEqual({ acked: [], retried: [body.event_id] });
    expect(await successCounts(w, "team-sub")).toEqual([1]);
    expect(await deliveryKeys(w, body.event_id)).toEqual(["learning.runs"]);

    // the redelivery while the feed is still down: learning is skipped by its delivery key
    expect(await w.deliver([body], 2, table)).toEqual({ acked: [], retried: [body.event_id] });
    feedDown = false;
    expect(await w.deliver([body], 3, table)).toEqual({ acked: [body.event_id], retried: [] });

    expect(seen).toEqual([body.event_id]);
    expect(feedCalls).toBe(3);
    expect(await successCounts(w, "team-sub")).toEqual([1]);
    // acked at last: its delivery keys are dropped
    expect(await deliveryKeys(w, body.event_id)).toEqual([]);
  });

  it("lets learning finish while the feed is still at work", async () => {
    const w = await nodeTestDeps(NOW);
    const { learning } = countedLearning();
    let learned!: () => void;
    const learningDone = new Promise<void>((resolve) => {
      learned = resolve;
    });
    const finishing: Subscriber<"run.completed"> = {
      name: learning.name,
      apply: async (events, d, ctx) => {
        const out = await learning.apply(events, d, ctx);
        learned();
        return out;
      },
    };
    // the feed answers only once learning is done: chained behind it, it would never see that
    let feedSawLearning = false;
    const slowFeed: Subscriber<"run.completed"> = {
      name: "slack.feed",
      async apply() {
        feedSawLearning = await Promise.race([
          learningDone.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000)),
        ]);
        return undefined;
      },
    };
    const table: SubscriberTable = { ...EVENT_SUBSCRIBERS, "run.completed": [slowFeed, finishing] };
    const body = runCompleted("team-slow", "run-1", [{ skill: "s", outcome: "success" }], NOW);
    expect(await w.deliver([body], 1, table)).toEqual({ acked: [body.event_id], retried: [] });
    expect(feedSawLearning).toBe(true);
    expect(await successCounts(w, "team-slow")).toEqual([1]);
  });

  it("keeps no delivery key when every subscriber applied the event the first time", async () => {
    const w = await nodeTestDeps(NOW);
    const body = runCompleted("team-clean", "run-1", [{ skill: "s", outcome: "success" }], NOW);
    expect(await w.deliver([body])).toEqual({ acked: [body.event_id], retried: [] });
    expect(await deliveryKeys(w, body.event_id)).toEqual([]);
  });

  it("retries a known type whose body does not fit its strict schema, and acks an unknown type", async () => {
    const w = await nodeTestDeps(NOW);
    const wrong = {
      event_id: "strict-1",
      type: "memory_store_failed",
      team_id: "t",
      occurred_at: NOW,
      source: "memory.write",
      code: "rejected",
      rule_ids: [],
      unknown_field: "x",
    };
    const unknown = { event_id: "unknown-1", type: "nothing.here", team_id: "t", occurred_at: NOW };
    expect(await w.deliver([wrong, unknown])).toEqual({ acked: ["unknown-1"], retried: ["strict-1"] });
  });
});
