// The run object's fault rows: the object reset during a lease (before, during and after a completion), and the same
// internal event redelivered to each queue consumer (EVENTS: learning, audit, decisions, gate metrics; its dead
// letters; SLACK_OUTBOX cards) — one effect each.
import { createMessageBatch, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { makeDeps } from "../../../src/deps";
import { consumeDeadLetters, consumeEvents } from "../../../src/features/events";
import { consumeSlackOutbox } from "../../../src/features/slack";
import type { SlackOutboxMessage } from "../../../src/features/slack/store/slack-store-port";
import { decisionsInR2 } from "../../decision-log";
import { call } from "../../helpers";
import {
  addOrder,
  complete,
  crashRun,
  eventLog,
  evictRun,
  lease,
  leasedOrder,
  rows,
  runState,
  teamTokens,
} from "../../run-helpers";
import { installSlack } from "../../slack";
import { isEnvelope } from "../http";
import { check, tally } from "../table";

const attemptsOf = (runId: string, orderId: string) =>
  rows<{ op_id: string }>("SELECT op_id FROM attempt WHERE run_id = ? AND order_id = ?", runId, orderId);

describe("faults: run object reset during a lease", () => {
  it("keeps the lease, completes once, keeps the idempotency record and never re-leases completed work", async () => {
    const t = await teamTokens("fault-reset");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await evictRun(runId);
    const hb = await call("POST", `/v1/runs/${runId}/orders/${orderId}/heartbeat`, {
      token: t.worker,
      body: { lease_id: l.lease_id, epoch: l.epoch },
    });
    expect(check("faults: reset during a lease", hb.status === 200), `heartbeat after reset → ${hb.text}`).toBe(true);

    await evictRun(runId);
    const body = { lease_id: l.lease_id, epoch: l.epoch, op_id: "c-reset", outcome: "PASS", output: { ok: 1 } };
    const first = await complete(t.worker, runId, orderId, body);
    expect(check("faults: reset during a lease", first.status === 200), first.text).toBe(true);

    await evictRun(runId);
    const again = await complete(t.worker, runId, orderId, body);
    // the idempotency record survived the reset: the same answer, nothing applied twice
    expect(check("faults: reset during a lease", again.text === first.text), again.text).toBe(true);
    const relet = await lease(t.worker, runId, orderId, "w2");
    const refused = relet.status >= 400 && relet.status < 500 && isEnvelope(relet.json);
    tally("faults: reset during a lease", {
      tried: 1,
      passed: refused ? 1 : 0,
      duplicated: relet.status === 200 ? 1 : 0,
    });
    expect(refused, `re-lease of completed work after a reset → ${relet.status} ${relet.text}`).toBe(true);

    const done = await attemptsOf(runId, orderId);
    tally("faults: reset during a lease", {
      tried: 1,
      passed: done.length === 1 ? 1 : 0,
      lost: done.length === 0 ? 1 : 0,
      duplicated: Math.max(0, done.length - 1),
    });
    expect(done.map((a) => a.op_id)).toEqual(["c-reset"]);
    expect((await runState(runId)).orders[orderId]?.lease).toBeFalsy();
  });

  it("answers a request caught by the reset with 503 unavailable and Retry-After: 1, and its retry lands once", async () => {
    const t = await teamTokens("fault-503");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const body = { lease_id: l.lease_id, epoch: l.epoch, op_id: "c-503", outcome: "PASS", output: { ok: 1 } };
    const held = crashRun(runId, 200);
    await new Promise((r) => setTimeout(r, 20));
    const caught = await complete(t.worker, runId, orderId, body);
    await held;
    const documented =
      caught.status === 503 &&
      caught.headers.get("retry-after") === "1" &&
      isEnvelope(caught.json) &&
      caught.json.error.code === "unavailable" &&
      !/\n\s+at /.test(caught.text);
    expect(check("faults: reset mid-completion", documented), `${caught.status} ${caught.text}`).toBe(true);
    const retry = await complete(t.worker, runId, orderId, body);
    expect(retry.status, retry.text).toBe(200);
    expect((await attemptsOf(runId, orderId)).map((a) => a.op_id)).toEqual(["c-503"]);
  });

  it("loses nothing and doubles nothing when the object resets while a completion is in flight", async () => {
    const t = await teamTokens("fault-race");
    const { runId } = await leasedOrder(t.worker, "o0");
    let lost = 0;
    let duplicated = 0;
    let interrupted = 0;
    const n = 8;
    for (let i = 1; i <= n; i++) {
      const orderId = `o${i}`;
      await addOrder(t.worker, runId, orderId);
      const l = (await lease(t.worker, runId, orderId, `w${i}`)).json;
      const body = { lease_id: l.lease_id, epoch: l.epoch, op_id: `c-race-${i}`, outcome: "PASS", output: { i } };
      // the reset lands before, during or after the completion; the worker retries once when it saw no answer
      const [res] = await Promise.all([complete(t.worker, runId, orderId, body), crashRun(runId)]);
      const retry = await complete(t.worker, runId, orderId, body);
      const landed = await attemptsOf(runId, orderId);
      const relet = await lease(t.worker, runId, orderId, `w${i}-again`);
      lost += landed.length === 0 ? 1 : 0;
      duplicated += Math.max(0, landed.length - 1) + (relet.status === 200 ? 1 : 0);
      // a request in flight when the object resets may fail, and then only with the documented 503 `unavailable`
      // and Retry-After: 1 (the envelope only, never a stack); the state decides: the retry with the same op_id
      // lands exactly once and the order is never leased again
      const answered =
        res.status < 500 ||
        (res.status === 503 &&
          res.headers.get("retry-after") === "1" &&
          isEnvelope(res.json) &&
          res.json.error.code === "unavailable" &&
          !/\n\s+at /.test(res.text));
      if (res.status >= 500) interrupted++;
      const ok = retry.status === 200 && landed.length === 1 && relet.status !== 200 && answered;
      expect(
        check("faults: reset mid-completion", ok),
        `${orderId}: ${res.status} ${res.headers.get("retry-after")} ${res.text} ${retry.status} ${landed.length}`,
      ).toBe(true);
    }
    tally("faults: reset mid-completion", { tried: 0, lost, duplicated });
    console.log(`faults: ${interrupted} of ${n} completions in flight during a reset answered 503 and were retried`);
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  });
});

/** The effects of the EVENTS consumers for one team, each table's rows as one string. */
async function effects(team: string) {
  const q = (sql: string) => rows(sql, team).then((r) => JSON.stringify(r));
  return {
    learning: await q("SELECT * FROM policy_memory_entry WHERE team_id = ? ORDER BY rowid"),
    ledger: await q("SELECT * FROM policy_memory_ledger WHERE team_id = ? ORDER BY rowid"),
    staged: await q("SELECT * FROM run_task_outcome WHERE team_id = ? ORDER BY rowid"),
    gates: await q("SELECT * FROM gate_metric WHERE team_id = ? ORDER BY rowid"),
    audit: await q("SELECT id, action, subject_id FROM audit_log WHERE team_id = ? ORDER BY rowid"),
    // the decision log: every decision id in the team's R2 objects (a duplicate would show twice) and its counters
    decisions: JSON.stringify((await decisionsInR2(team)).map((d) => d.decision_id).sort()),
    decisionCounters: await q("SELECT * FROM decision_counter WHERE team_id = ? ORDER BY rowid"),
    slackFeed: await q("SELECT run_id, steps, version FROM slack_feed_run WHERE team_id = ? ORDER BY rowid"),
    slackAlerts: await q("SELECT * FROM slack_alert_occurrence WHERE team_id = ? ORDER BY rowid"),
  };
}

describe("faults: queue redelivery", () => {
  it("applies each event of a real run once, however often EVENTS, its dead letters and SLACK_OUTBOX redeliver it", async () => {
    const team = "fault-redeliver";
    const t = await teamTokens(team);
    await installSlack(team);
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    await complete(t.worker, runId, orderId, { lease_id: l.lease_id, epoch: 1, op_id: "c1", outcome: "PASS" });
    const gate = await call("POST", `/v1/runs/${runId}/gates`, {
      token: t.worker,
      body: { op_id: "g1", policy_key: "wrong_value" },
    });
    await call("POST", `/v1/gates/${gate.json.gate_id}/decision`, {
      token: t.approver,
      body: { decision: "deny", note: "reviewed" },
    });
    await call("POST", `/v1/runs/${runId}/stop`, { token: t.worker, body: { reason: "done" } });
    // the run's queued events as its object sent them, plus a refused memory write's audit event
    const queued = new Set(["task.completed", "task.failed", "gate.opened", "gate.decided", "run.completed"]);
    const events: any[] = (await eventLog(runId)).filter((e) => queued.has(e.type));
    events.push({
      event_id: `msf-${team}`,
      type: "memory_store_failed",
      team_id: team,
      run_id: null,
      occurred_at: Date.now(),
      source: "memory.write",
      code: "redaction_required",
      rule_ids: ["secret.github_token"],
      scope: `team/${team}/org`,
    });
    const types = new Set(events.map((e) => e.type));
    for (const type of ["task.completed", "gate.opened", "gate.decided", "run.completed"])
      expect(types.has(type), `${type} in ${[...types]} `).toBe(true);

    const cards: SlackOutboxMessage[] = [];
    const posts: string[] = [];
    const deps = makeDeps(env, {
      slackOutbox: { send: async (m) => void cards.push(...m) },
      slackApi: {
        call: async (method) => {
          posts.push(method);
          return { ok: true, body: { ok: true, channel: "C0APPR", ts: `1700000000.${posts.length}` } };
        },
        respond: async () => ({ ok: true, body: { ok: true } }),
      },
    });
    let seq = 0;
    const deliver = async (queue: string, bodies: unknown[], attempts: number) => {
      const batch = createMessageBatch(
        queue,
        bodies.map((body) => ({ id: `m${++seq}`, timestamp: new Date(), attempts, body })),
      );
      if (queue === "warden-events") await consumeEvents(batch, deps);
      else if (queue === "warden-events-dlq") await consumeDeadLetters(batch, deps);
      else await consumeSlackOutbox(batch as MessageBatch<SlackOutboxMessage>, deps);
    };

    // first delivery (the real queue may already have delivered them too: that only makes this a redelivery)
    await deliver("warden-events", events, 1);
    // the dead-letter consumer's first delivery too: its operator alert is then one of the messages posted once below
    const deadLetters = () => rows("SELECT id, attempts FROM event_dead_letter WHERE team_id = ?", team);
    await deliver("warden-events-dlq", events, 4);
    const lettersOnce = JSON.stringify(await deadLetters());
    const once = await effects(team);
    const cardsOnce = cards.length;
    await deliver("warden-slack-outbox", cards.slice(0, cardsOnce), 1);
    const postsOnce = posts.filter((m) => m === "chat.postMessage").length;
    const slackMessages = async () =>
      (await rows("SELECT key, ts FROM slack_message WHERE team_id = ?", team)) as { key: string; ts: string }[];
    const slackOnce = await slackMessages();

    // redelivered: one by one, then all twice within one batch
    for (const e of events) await deliver("warden-events", [e], 2);
    await deliver("warden-events", [...events, ...events], 3);
    const twice = await effects(team);
    for (const [consumer, rowsOnce] of Object.entries(once)) {
      const same = twice[consumer as keyof typeof twice] === rowsOnce;
      tally("faults: queue redelivery", { tried: 1, passed: same ? 1 : 0, duplicated: same ? 0 : 1 });
      expect(same, `${consumer}: ${rowsOnce} → ${twice[consumer as keyof typeof twice]}`).toBe(true);
    }
    expect(once.learning.length + once.gates.length + once.audit.length).toBeGreaterThan(6);

    // the dead-letter consumer: the same exhausted messages arriving again are recorded once each
    await deliver("warden-events-dlq", [...events, ...events], 4);
    const lettersTwice = await deadLetters();
    const oneLetter = lettersTwice.length === events.length && JSON.stringify(lettersTwice) === lettersOnce;
    tally("faults: queue redelivery", {
      tried: 1,
      passed: oneLetter ? 1 : 0,
      duplicated: Math.max(0, lettersTwice.length - events.length),
    });
    expect(oneLetter, `${lettersOnce} → ${JSON.stringify(lettersTwice)}`).toBe(true);

    // every card the redeliveries queued again updates the one message in place, never a second post
    await deliver("warden-slack-outbox", cards.slice(cardsOnce), 2);
    await deliver("warden-slack-outbox", cards.slice(0, cardsOnce), 3);
    const postsTwice = posts.filter((m) => m === "chat.postMessage").length;
    const slackTwice = await slackMessages();
    // the real queue may have posted a card already (then the first delivery here updates it) or post the run's feed
    // cards in the background meanwhile (new keys): either way each message known before is the same one, once
    const tsTwice = new Map(slackTwice.map((m) => [m.key, m.ts]));
    const oneCard =
      slackOnce.some((m) => m.key.startsWith("gate:")) &&
      postsTwice === postsOnce &&
      tsTwice.size === slackTwice.length &&
      slackOnce.every((m) => tsTwice.get(m.key) === m.ts);
    tally("faults: queue redelivery", { tried: 1, passed: oneCard ? 1 : 0, duplicated: postsTwice - postsOnce });
    expect(
      oneCard,
      `posts ${postsOnce} → ${postsTwice}; ${JSON.stringify(slackOnce)} → ${JSON.stringify(slackTwice)}`,
    ).toBe(true);
  });
});
