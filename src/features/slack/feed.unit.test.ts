// The run feed's pure core: steps from run events (latency and tokens shown), the status window's merge (one per seq,
// the last N, order-free, idempotent), ids in text and metadata, and which steps get their own reply.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FEED_MEM_IDS,
  FEED_STATUS_STEPS,
  feedKeys,
  feedRootMessage,
  feedStatusMessage,
  feedStepOf,
  mergeFeedSteps,
  notableMessage,
} from "./feed";
import type { FeedStep } from "./store/slack-feed-store-port";

const step = fc.integer({ min: 0, max: 40 }).map((seq): FeedStep => ({ seq, at: seq * 1000, line: `step ${seq}` }));
const steps = fc.array(step, { maxLength: 30 });
const seqs = (list: FeedStep[]) => list.map((s) => s.seq);

describe("mergeFeedSteps (properties)", () => {
  it("keeps the highest distinct seqs, at most N, in order", () => {
    fc.assert(
      fc.property(steps, steps, fc.integer({ min: 1, max: 12 }), (kept, incoming, max) => {
        const merged = mergeFeedSteps(kept, incoming, max);
        const all = [...new Set(seqs([...kept, ...incoming]))].sort((a, b) => a - b);
        expect(seqs(merged)).toEqual(all.slice(-max));
      }),
    );
  });

  it("is idempotent (a redelivered step changes nothing) and does not depend on arrival order", () => {
    fc.assert(
      fc.property(steps, steps, (a, b) => {
        const once = mergeFeedSteps(a, b);
        expect(mergeFeedSteps(once, b)).toEqual(once);
        expect(seqs(mergeFeedSteps(mergeFeedSteps([], b), a))).toEqual(seqs(mergeFeedSteps(mergeFeedSteps([], a), b)));
      }),
    );
  });
});

const ev = (fields: { type: string } & Record<string, unknown>) => ({
  team_id: "t1",
  run_id: "r1",
  occurred_at: Date.UTC(2026, 0, 1, 9, 30, 5),
  seq: 7,
  ...fields,
});

describe("feed steps", () => {
  it("shows an attempt's outcome with its latency and tokens", () => {
    const s = feedStepOf(
      ev({
        type: "task.completed",
        order_id: "o1",
        skill: "extract",
        outcome: "PASS",
        latency_ms: 4800,
        tokens: { in: 120, out: 33 },
      }),
    );
    expect(s).toEqual({ seq: 7, at: Date.UTC(2026, 0, 1, 9, 30, 5), order_id: "o1", line: expect.any(String) });
    expect(s?.line).toBe("09:30:05 order `o1` extract — PASS (4.8s • 153 tokens)");
    const failed = feedStepOf(
      ev({ type: "task.failed", order_id: "o1", outcome: "DECLINE", failure_class: "schema_invalid", next: "gate" }),
    );
    expect(failed?.line).toContain("DECLINE schema_invalid → gate");
  });

  it("names the memories a completion cites (seed 003 §8 anatomy), at most FEED_MEM_IDS, then how many more", () => {
    const one = feedStepOf(
      ev({
        type: "task.completed",
        order_id: "o1",
        skill: "extract",
        outcome: "PASS",
        used_mem_ids: ["team/alpha/org/sop/extract.v1"],
      }),
    );
    expect(one?.line).toBe("09:30:05 order `o1` extract — PASS; used_mem_ids: `team/alpha/org/sop/extract.v1`");
    const many = feedStepOf(
      ev({ type: "task.completed", order_id: "o1", used_mem_ids: ["m1", "m2", "m3", "m4", "m5", 7] }),
    );
    expect(many?.line).toContain("used_mem_ids: `m1`, `m2`, `m3` +2 more");
    expect(FEED_MEM_IDS).toBe(3);
    for (const used of [undefined, [], "m1", [7]])
      expect(feedStepOf(ev({ type: "task.completed", order_id: "o1", used_mem_ids: used }))?.line).not.toContain(
        "used_mem_ids",
      );
  });

  it("takes only run-object events (with a seq) of the kinds the feed shows", () => {
    expect(feedStepOf(ev({ type: "task.completed", seq: undefined }))).toBeNull();
    expect(feedStepOf(ev({ type: "gate.escalated", gate_id: "g" }))).toBeNull();
    expect(feedStepOf(ev({ type: "policy.decided" }))).toBeNull();
    expect(feedStepOf(ev({ type: "gate.opened", gate_id: "g1", kind: "auto", policy_key: "k" }))?.line).toContain(
      "gate `g1` (auto, k) opened",
    );
  });
});

describe("feed messages", () => {
  const run = { team_id: "t1", run_id: "r1" };

  it("puts team, run and order ids in the root's text and metadata, version 0 (a Slack-started root wins)", () => {
    const root = feedRootMessage(run, "o1", "https://w.example/runs/r1/trace?view=tok");
    expect(root).toMatchObject({
      key: feedKeys.root("r1"),
      channel: "feed",
      version: 0,
      metadata: { event_type: "warden_run", event_payload: { team_id: "t1", run_id: "r1", order_id: "o1" } },
    });
    expect(root.text).toContain("team `t1` · run `r1` · order `o1`");
    expect(root.text).toContain("<https://w.example/runs/r1/trace?view=tok|View Trace>");
  });

  it("threads the status reply under the root with the steps and the feed's version", () => {
    const list = [1, 2, 3].map((seq) => ({ seq, at: 0, line: `line ${seq}`, order_id: `o${seq}` }));
    const status = feedStatusMessage(run, list, 5);
    expect(status).toMatchObject({
      key: feedKeys.status("r1"),
      thread_key: feedKeys.root("r1"),
      version: 5,
      metadata: { event_payload: { order_id: "o3" } },
    });
    expect(status.text.split("\n").filter((l) => l.startsWith("• "))).toEqual(["• line 1", "• line 2", "• line 3"]);
    expect(FEED_STATUS_STEPS).toBe(10);
  });

  it("gives soft and hard gates one reply (opened v1, decided v2) and the completion one; attempts none", () => {
    const opened = notableMessage(ev({ type: "gate.opened", gate_id: "g1", kind: "hard", policy_key: "wrong_value" }));
    const decided = notableMessage(
      ev({
        type: "gate.decided",
        gate_id: "g1",
        kind: "hard",
        status: "approved",
        decided_by: "alice",
        latency_ms: 1500,
      }),
    );
    expect([opened?.key, opened?.version]).toEqual([feedKeys.gate("r1", "g1"), 1]);
    expect([decided?.key, decided?.version]).toEqual([feedKeys.gate("r1", "g1"), 2]);
    expect(decided?.text).toContain("approved by alice after 1.5s");
    expect(notableMessage(ev({ type: "gate.opened", gate_id: "g2", kind: "auto", policy_key: "k" }))).toBeNull();
    const done = notableMessage(
      ev({ type: "run.completed", outcome: "COMPLETED", steps: 4, tokens: { in: 100, out: 20 }, duration_ms: 9000 }),
    );
    expect(done?.key).toBe(feedKeys.completed("r1"));
    expect(done?.text).toContain("Run COMPLETED (4 steps • 120 tokens • 9.0s • 0 dead letters)");
    expect(notableMessage(ev({ type: "task.completed", order_id: "o1" }))).toBeNull();
  });
});
