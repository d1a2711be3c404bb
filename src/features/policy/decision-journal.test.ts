// The decision journal in the team object (local DO, R2, D1): decide answers once its row is durable, the alarm writes
// the log and clears the rows, a failed or interrupted flush is written again exactly once, teams never share one.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  counterRows,
  decisionsInR2,
  flushJournal,
  journalRows,
  loggedDecision,
  objectKeys,
  teamObject,
} from "../../../test/decision-log";
import { call, token } from "../../../test/helpers";
import { rows } from "../../../test/learning";
import { makeJournalFlushNeeds } from "../../deps";
import type { DecisionCounterStore, DecisionObjects } from "../../ports/decision-log";
import type { WardenEvent } from "../../ports/event-bus";
import { batchIdOf } from "./decision-log-layout";
import { JOURNAL_FLUSH_DELAY_MS } from "./journal-batch";
import type { JournalFlushNeeds } from "./journal-flush";

const decideBody = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };
/** the last attempt: the policy escalates */
const escalateBody = { ...decideBody, attempt: 3 };

async function decide(team: string, n: number, body: object = decideBody): Promise<string[]> {
  const t = await token(team);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await call("POST", "/v1/policy/decide", { token: t, body });
    expect(res.status, res.text).toBe(200);
    ids.push(res.json.decision_id);
  }
  return ids;
}

/** One flush in the team's object with these needs (the alarm's own flush, with parts replaced). */
async function flushWith(team: string, needs: Partial<JournalFlushNeeds>): Promise<void> {
  const real = makeJournalFlushNeeds(env);
  await runInDurableObject(teamObject(team), (o) => o.flushDecisions({ ...real, ...needs }));
}

const outages = async () =>
  (await rows<{ n: number }>("SELECT coalesce(sum(failures), 0) AS n FROM decision_log_outage"))[0]?.n ?? 0;

/** the decisions the team's counters hold, over every (class, mode, action) row */
const countedDecisions = async (team: string) => (await counterRows(team)).reduce((n, r) => n + Number(r.decisions), 0);

function capturing() {
  const sent: WardenEvent[] = [];
  return { sent, bus: { publish: async (events: WardenEvent[]) => void sent.push(...events) } };
}

describe("decision journal", () => {
  it("holds an acknowledged decision in the team object before any alarm, and nothing in the log yet", async () => {
    const team = "team-jr-durable";
    const started = Date.now();
    const ids = await decide(team, 3);
    const held = (await journalRows(team)).map((d) => d.decision_id);
    const alarm = await runInDurableObject(teamObject(team), (_o, state) => state.storage.getAlarm());
    if (Date.now() - started < JOURNAL_FLUSH_DELAY_MS) {
      expect(held).toEqual(ids);
      expect(await objectKeys(team)).toEqual([]);
      // the alarm is armed with the append
      expect(alarm).not.toBeNull();
    } else {
      // a machine slow enough for the armed alarm to fire during the three decides: then the log holds the oldest
      // acknowledged decisions and the journal the rest, in order (nothing acknowledged is lost; a flush between the two
      // reads can show a decision in both, and logging exactly once is the flush tests' matter)
      const logged = (await decisionsInR2(team)).map((d) => d.decision_id);
      expect([...new Set([...logged, ...held])]).toEqual(ids);
      expect(logged.length).toBeGreaterThan(0);
    }
  });

  it("flushes by alarm: one NDJSON object with the digested decisions, counters once, the rows gone, escalations out", async () => {
    const team = "team-jr-flush";
    const retries = await decide(team, 2);
    const escalations = await decide(team, 2, escalateBody);
    const ids = [...retries, ...escalations];
    const events = capturing();
    await flushWith(team, { events: events.bus });
    expect(await journalRows(team)).toEqual([]);
    const logged = await decisionsInR2(team);
    expect(logged.map((d) => d.decision_id)).toEqual(ids);
    for (const d of logged) expect(d.inputs_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(await objectKeys(team)).toHaveLength(1);
    expect(await countedDecisions(team)).toBe(4);
    expect(logged.map((d) => d.selected_action)).toEqual(["retry", "retry", "escalate", "escalate"]);
    // the escalation audit hears of each escalation, after the log holds it; a retry is in the log and counters only
    expect(events.sent.map((e) => [e.type, e.event_id])).toEqual(escalations.map((id) => ["policy.decided", id]));
    // nothing left: a further alarm writes nothing
    await runDurableObjectAlarm(teamObject(team));
    expect(await countedDecisions(team)).toBe(4);
  });

  it("keeps the rows when R2 refuses, counts the outage, and logs them once when a later alarm succeeds", async () => {
    const team = "team-jr-outage";
    const ids = await decide(team, 2);
    const before = await outages();
    const refusing: DecisionObjects = {
      ...makeJournalFlushNeeds(env).decisionObjects,
      put: async () => {
        throw new Error("R2 unavailable");
      },
    };
    await flushWith(team, { decisionObjects: refusing });
    expect(await outages()).toBe(before + 1);
    expect((await journalRows(team)).map((d) => d.decision_id)).toEqual(ids);
    expect(await counterRows(team)).toEqual([]);
    // a retry is armed (with backoff)
    expect(await runInDurableObject(teamObject(team), (_o, state) => state.storage.getAlarm())).not.toBeNull();
    await flushJournal(team);
    expect((await decisionsInR2(team)).map((d) => d.decision_id)).toEqual(ids);
    expect((await counterRows(team)).map((r) => r.decisions)).toEqual([2]);
  });

  it("writes a flush interrupted after the log write again as the same batch: one object, counted once", async () => {
    const team = "team-jr-crash";
    const first = await decide(team, 3);
    // the log is written, then the flush dies before the rows are deleted (here: EVENTS refuses)
    const dying = {
      publish: async () => {
        throw new Error("killed after the log write");
      },
    };
    await flushWith(team, { events: dying });
    expect(await objectKeys(team)).toHaveLength(1);
    expect((await journalRows(team)).map((d) => d.decision_id)).toEqual(first);
    // newer decisions arrive before the retry: they wait for the next batch, the claimed one is written as it was
    const later = await decide(team, 2);
    await flushJournal(team);
    expect(await journalRows(team)).toEqual([]);
    const logged = (await decisionsInR2(team)).map((d) => d.decision_id);
    expect(logged.sort()).toEqual([...first, ...later].sort());
    expect((await counterRows(team)).map((r) => r.decisions)).toEqual([5]);
    expect(await objectKeys(team)).toHaveLength(2);
    const manifest = await rows<{ decisions: number }>(
      "SELECT decisions FROM decision_log_batch WHERE batch_id = ?",
      await batchIdOf(first),
    );
    expect(manifest).toEqual([{ decisions: 3 }]);
  });

  it("writes a flush interrupted between the R2 write and the counters once", async () => {
    const team = "team-jr-counters";
    const ids = await decide(team, 2);
    const real = makeJournalFlushNeeds(env).decisionCounters;
    const failing: DecisionCounterStore = {
      ...real,
      apply: async () => {
        throw new Error("D1 unavailable");
      },
    };
    await flushWith(team, { decisionCounters: failing });
    expect(await counterRows(team)).toEqual([]);
    expect((await journalRows(team)).map((d) => d.decision_id)).toEqual(ids);
    await flushJournal(team);
    expect((await counterRows(team)).map((r) => r.decisions)).toEqual([2]);
    expect((await decisionsInR2(team)).map((d) => d.decision_id)).toEqual(ids);
  });

  it("adds nothing for a decision appended again after it was logged (a run outbox's retry)", async () => {
    const team = "team-jr-again";
    const d = loggedDecision(team, "again-1", Date.now());
    const stub = teamObject(team);
    expect(await stub.journalAppend(team, [d])).toEqual({ ok: true, value: 1 });
    expect(await stub.journalAppend(team, [d])).toEqual({ ok: true, value: 0 });
    await flushJournal(team);
    expect(await stub.journalAppend(team, [d])).toEqual({ ok: true, value: 0 });
    expect(await journalRows(team)).toEqual([]);
    expect((await decisionsInR2(team)).map((x) => x.decision_id)).toEqual(["again-1"]);
  });

  it("appends a batch in one statement: in order, a repeated id once, a logged id skipped, bodies whole", async () => {
    const team = "team-jr-batch";
    const now = Date.now();
    const stub = teamObject(team);
    const done = loggedDecision(team, "batch-done", now);
    await stub.journalAppend(team, [done]);
    await flushJournal(team);
    const a = loggedDecision(team, "batch-a", now);
    const b = loggedDecision(team, "batch-b", now + 1);
    const c = loggedDecision(team, "batch-c", now + 2);
    expect(await stub.journalAppend(team, [c, a, done, c, b])).toEqual({ ok: true, value: 3 });
    expect(await journalRows(team)).toEqual([c, a, b]);
    expect(await stub.journalAppend(team, [])).toEqual({ ok: true, value: 0 });
  });

  it("journals every one of many concurrent decides of one team (their appends may share a commit)", async () => {
    const team = "team-jr-concurrent";
    const t = await token(team);
    const answers = await Promise.all(
      Array.from({ length: 24 }, () => call("POST", "/v1/policy/decide", { token: t, body: decideBody })),
    );
    for (const res of answers) expect(res.status, res.text).toBe(200);
    const ids = answers.map((res) => res.json.decision_id as string);
    const journaled = await journalRows(team);
    expect(journaled.map((d) => d.decision_id).sort()).toEqual([...ids].sort());
    for (const d of journaled)
      expect(d).toMatchObject({ team_id: team, failure_class: "vibe_fail", inputs: decideBody });
  });

  it("writes concurrent appends together: each decision once, each added counted for one caller", async () => {
    const team = "team-jr-shared";
    const stub = teamObject(team);
    const now = Date.now();
    const a = loggedDecision(team, "shared-a", now);
    const b = loggedDecision(team, "shared-b", now + 1);
    const c = loggedDecision(team, "shared-c", now + 2);
    const outcomes = await Promise.all([
      stub.journalAppend(team, [a, b]),
      stub.journalAppend(team, [b, c]),
      stub.journalAppend(team, [c]),
      stub.journalAppend(team, []),
    ]);
    for (const o of outcomes) expect(o.ok).toBe(true);
    expect(outcomes.reduce((n, o) => n + (o.ok ? o.value : 0), 0)).toBe(3);
    expect((await journalRows(team)).map((d) => d.decision_id).sort()).toEqual(["shared-a", "shared-b", "shared-c"]);
  });

  it("keeps each team's decisions in its own object and refuses another team's decision", async () => {
    const a = await decide("team-jr-a", 2);
    const b = await decide("team-jr-b", 1);
    expect((await journalRows("team-jr-a")).map((d) => d.decision_id)).toEqual(a);
    expect((await journalRows("team-jr-b")).map((d) => d.decision_id)).toEqual(b);
    const refused = await teamObject("team-jr-a").journalAppend("team-jr-a", [
      loggedDecision("team-jr-b", "foreign-1", Date.now()),
    ]);
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/not of team team-jr-a/) });
    expect(await journalRows("team-jr-a")).toHaveLength(2);
    await flushJournal("team-jr-a");
    await flushJournal("team-jr-b");
    expect((await decisionsInR2("team-jr-a")).map((d) => d.decision_id)).toEqual(a);
    expect((await decisionsInR2("team-jr-b")).map((d) => d.decision_id)).toEqual(b);
  });
});
