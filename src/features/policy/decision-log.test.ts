// The decision log on R2 (issue 27), through local R2 and D1: the writer puts NDJSON objects per (team, hour) and
// counters (no D1 row per decision); a batch written again is written once; the EVENTS consumer writes no log (the
// journal flush does: decision-journal.test.ts); replay reads only the caller's team and names the hours it read.
import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  counterRows,
  decisionsInR2,
  flushJournal,
  journalRows,
  logDecisions,
  loggedDecision,
  manifestRows,
  objectKeys,
} from "../../../test/decision-log";
import { apiRequest, call, readResponse, token } from "../../../test/helpers";
import { makeDeps } from "../../deps";
import type { DecisionJournal } from "../../ports/decision-journal";
import type { DecisionObjects } from "../../ports/decision-log";
import type { WardenEvent } from "../../ports/event-bus";
import { consumeEvents } from "../events/consumer";
import { consumeDeadLetters } from "../events/dead-letters";
import { appendDecisions } from "./decision-log";
import { batchIdOf, HOUR_MS, hourName, hourOf } from "./decision-log-layout";
import { readDecisions } from "./decision-log-reader";
import { DEFAULT_PROFILE } from "./default-profile";
import type { LoggedDecision, PolicyStore } from "./store/policy-store-port";

const decideBody = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };

/** The local bucket, refusing every put while `down.value` is true. */
function flakyObjects(down: { value: boolean }): DecisionObjects {
  const real = makeDeps(env).decisionObjects;
  return {
    ...real,
    put: async (key, body) => {
      if (down.value) throw new Error("R2 unavailable");
      await real.put(key, body);
    },
  };
}

/** Decides `n` times through the app with these deps, then waits for the requests' deferred work. */
async function decideMany(deps: ReturnType<typeof makeDeps>, teamId: string, n: number): Promise<string[]> {
  const { createApp } = await import("../../app");
  const app = createApp();
  const t = await token(teamId);
  const ctx = createExecutionContext();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await readResponse(
      await app.fetch(apiRequest("POST", "/v1/policy/decide", { token: t, body: decideBody }), { deps }, ctx),
    );
    expect(res.status).toBe(200);
    ids.push(res.json.decision_id);
  }
  await waitOnExecutionContext(ctx);
  return ids;
}

const decidedEvent = (d: LoggedDecision): WardenEvent => ({
  event_id: d.decision_id,
  type: "policy.decided",
  team_id: d.team_id,
  occurred_at: d.created_at,
  decision: d,
});

async function consume(events: WardenEvent[], deps: ReturnType<typeof makeDeps>, tag: string) {
  const batch = createMessageBatch(
    "warden-events",
    events.map((body, i) => ({ id: `${tag}${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  await consumeEvents(batch, deps);
  return getQueueResult(batch, createExecutionContext());
}

describe("decision log on R2", () => {
  it("writes decide's decisions by the team object's flush: one NDJSON object, counters, no D1 row", async () => {
    const ids = await decideMany(makeDeps(env), "team-dlog-direct", 3);
    expect(await objectKeys("team-dlog-direct")).toEqual([]);
    await flushJournal("team-dlog-direct");
    const logged = await decisionsInR2("team-dlog-direct");
    expect(logged.map((d) => d.decision_id).sort()).toEqual([...ids].sort());
    for (const d of logged) {
      expect(d.inputs_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(d.selected_action).toBe("retry");
      expect(d.inputs).toEqual(decideBody);
    }
    const keys = await objectKeys("team-dlog-direct");
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const k of keys)
      expect(k).toMatch(/^decisions\/team-dlog-direct\/\d{4}-\d{2}-\d{2}\/\d{2}\/[0-9a-f]{32}\.ndjson$/);
    expect(await counterRows("team-dlog-direct")).toEqual([
      {
        failure_class: "vibe_fail",
        mode: "enforce",
        action: "retry",
        decisions: 3,
        unknown_class: 0,
        missing_metadata: 0,
      },
    ]);
    // no D1 row: the policy store reads no legacy policy_decision row of the team
    expect(await makeDeps(env).policyStore.loggedDecisions("team-dlog-direct", 0, 1000)).toEqual([]);
  });

  it("writes nothing to the log from the EVENTS consumer: a delivered policy.decided event is not a second writer", async () => {
    const team = "team-dlog-consumer";
    const events = [1, 2].map((i) => decidedEvent(loggedDecision(team, `c-${i}`, Date.now() + i)));
    expect((await consume(events, makeDeps(env), "c")).explicitAcks).toHaveLength(2);
    expect(await objectKeys(team)).toEqual([]);
    expect(await counterRows(team)).toEqual([]);
  });

  it("reads back exactly what it wrote, across hours, oldest first, naming the hours it read", async () => {
    const team = "team-dlog-round";
    const base = hourOf(Date.now()) - 3 * HOUR_MS;
    const written = [
      loggedDecision(team, "r-3", base + 2 * HOUR_MS + 5, { selected_action: "escalate" }),
      loggedDecision(team, "r-1", base + 10),
      loggedDecision(team, "r-2", base + 20, { failure_class: null, rule_id: "default.missing_metadata" }),
    ];
    await logDecisions(written);
    // the other team's decision in the same hour is not read
    await logDecisions([loggedDecision("team-dlog-round-other", "x-1", base + 30)]);
    const read = await readDecisions(makeDeps(env), team, base, 100);
    expect(read.decisions).toEqual([written[1], written[2], written[0]]);
    expect(read.hours_read).toEqual([hourName(base), hourName(base + 2 * HOUR_MS)]);
    // a window starting mid-hour leaves out what came before it, and the limit cuts oldest first
    expect((await readDecisions(makeDeps(env), team, base + 15, 100)).decisions.map((d) => d.decision_id)).toEqual([
      "r-2",
      "r-3",
    ]);
    expect((await readDecisions(makeDeps(env), team, base, 1)).decisions.map((d) => d.decision_id)).toEqual(["r-1"]);
  });

  it("writes a batch written again once: the same object, the counters added once", async () => {
    const team = "team-dlog-redeliver";
    const now = Date.now();
    const decisions = [1, 2, 3].map((i) => loggedDecision(team, `rd-${i}`, now + i));
    await logDecisions(decisions);
    await logDecisions(decisions);
    expect(await objectKeys(team)).toHaveLength(1);
    expect((await decisionsInR2(team)).map((d) => d.decision_id)).toEqual(["rd-1", "rd-2", "rd-3"]);
    expect((await counterRows(team)).map((r) => r.decisions)).toEqual([3]);
    const batchId = await batchIdOf(decisions.map((d) => d.decision_id));
    expect((await manifestRows(batchId)).map(({ decisions, objects }) => ({ decisions, objects }))).toEqual([
      { decisions: 3, objects: 1 },
    ]);
  });

  it("adds a flush of many teams' counters (more than one statement's rows) once, however often it is written", async () => {
    const now = Date.now();
    const decisions = Array.from({ length: 30 }, (_, i) =>
      loggedDecision(`team-dlog-many-${i % 15}`, `many-${i}`, now, { selected_action: i % 2 ? "escalate" : "retry" }),
    );
    await logDecisions(decisions);
    await logDecisions([...decisions].reverse());
    for (let t = 0; t < 15; t++) {
      const mine = decisions.filter((d) => d.team_id === `team-dlog-many-${t}`);
      expect((await counterRows(`team-dlog-many-${t}`)).map((r) => [r.action, r.decisions])).toEqual(
        ["escalate", "retry"]
          .map((a) => [a, mine.filter((d) => d.selected_action === a).length])
          .filter(([, n]) => n !== 0),
      );
      expect(await objectKeys(`team-dlog-many-${t}`)).toHaveLength(1);
    }
  });

  it("prunes manifest rows past their age and keeps younger ones", async () => {
    const now = Date.now();
    const decisions = [loggedDecision("team-dlog-prune", "p-1", now)];
    await logDecisions(decisions);
    const batchId = await batchIdOf(["p-1"]);
    const manifest = () => manifestRows(batchId);
    const counters = makeDeps(env).decisionCounters;
    expect(await counters.pruneManifest(now - HOUR_MS)).toBe(0);
    expect(await manifest()).toHaveLength(1);
    expect(await counters.pruneManifest(now + HOUR_MS)).toBeGreaterThanOrEqual(1);
    expect(await manifest()).toEqual([]);
    // the counters stay: only the redelivery guard goes
    expect((await counterRows("team-dlog-prune")).map((r) => r.decisions)).toEqual([1]);
  });

  it("counts an R2 refusal as an outage and adds no counters for the refused batch", async () => {
    const team = "team-dlog-outage";
    const now = Date.now();
    const decisions = [1, 2].map((i) => loggedDecision(team, `out-${i}`, now + i));
    const down = { value: true };
    const deps = makeDeps(env, { decisionObjects: flakyObjects(down) });
    // every hour's outage failures, as the counter store reads them back
    const outageFailures = async () => (await deps.decisionCounters.outages(0)).reduce((n, o) => n + o.failures, 0);
    const before = await outageFailures();
    await expect(appendDecisions(decisions, deps)).rejects.toThrow(/R2 unavailable/);
    const after = await outageFailures();
    expect(after - before).toBe(1);
    expect(await counterRows(team)).toEqual([]);
    down.value = false;
    await appendDecisions(decisions, deps);
    expect((await decisionsInR2(team)).map((d) => d.decision_id)).toEqual(["out-1", "out-2"]);
    expect((await counterRows(team)).map((r) => r.decisions)).toEqual([2]);
  });

  it("answers 503 unavailable and acknowledges nothing when the team's journal refuses the decision", async () => {
    const refusing: DecisionJournal = {
      append: async () => {
        throw new Error("team object unavailable");
      },
    };
    const { createApp } = await import("../../app");
    const res = await readResponse(
      await createApp().fetch(
        apiRequest("POST", "/v1/policy/decide", { token: await token("team-dlog-refused"), body: decideBody }),
        { deps: makeDeps(env, { decisionJournal: refusing }) },
        createExecutionContext(),
      ),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.json.error.code).toBe("unavailable");
    expect(res.json.decision_id).toBeUndefined();
    expect(await journalRows("team-dlog-refused")).toEqual([]);
    expect(await objectKeys("team-dlog-refused")).toEqual([]);
  });

  it("dead-letters a policy.decided event a subscriber failed every retry (the EVENTS dead-letter consumer records it)", async () => {
    const event = decidedEvent(loggedDecision("team-dlog-dlq", "dlq-1", Date.now()));
    const batch = createMessageBatch("warden-events-dlq", [
      { id: "d0", timestamp: new Date(), attempts: 4, body: event },
    ]);
    await consumeDeadLetters(batch, makeDeps(env));
    // the team's recorded dead letters, as GET /v1/metrics lists them
    const metrics = await call("GET", "/v1/metrics", { token: await token("team-dlog-dlq", ["runs:read"]) });
    expect(metrics.status).toBe(200);
    expect(
      (metrics.json.dlq_recent as { event_id: string; type: string }[]).map(({ event_id, type }) => ({
        event_id,
        type,
      })),
    ).toEqual([{ event_id: "dlq-1", type: "policy.decided" }]);
  });

  it("still reads decisions logged in policy_decision before the move, each decision once", async () => {
    const team = "team-dlog-legacy";
    const now = Date.now();
    // a decision the D1 log wrote, as the policy store reads it from policy_decision (that read of the legacy rows is
    // the store's: src/features/policy/store/legacy-decisions.app.unit.test.ts)
    const legacy = loggedDecision(team, "old-1", now - 2000, {
      inputs: {},
      inputs_digest: "d",
      ceiling: "observe",
      failure_class: null,
      attempt_bucket: null,
    });
    const policyStore: Pick<PolicyStore, "loggedDecisions"> = {
      loggedDecisions: async (teamId, sinceMs, limit) =>
        [legacy].filter((d) => d.team_id === teamId && d.created_at >= sinceMs).slice(0, limit),
    };
    // the same decision in R2 too (a deployment upgraded mid-flush) and a new one
    await logDecisions([loggedDecision(team, "old-1", now - 2000), loggedDecision(team, "new-1", now - 1000)]);
    const read = await readDecisions({ ...makeDeps(env), policyStore }, team, now - HOUR_MS, 100);
    expect(read.decisions.map((d) => d.decision_id)).toEqual(["old-1", "new-1"]);
  });

  it("replays only the caller's team: another team's token reads none of its hours", async () => {
    const now = Date.now();
    await logDecisions([loggedDecision("team-dlog-a", "a-1", now - 1000), loggedDecision("team-dlog-a", "a-2", now)]);
    const replay = async (team: string) =>
      call("POST", "/v1/policy/replay", {
        token: await token(team, ["policy:admin"]),
        body: { profile: DEFAULT_PROFILE, since: now - HOUR_MS },
      });
    const own = await replay("team-dlog-a");
    expect(own.status, own.text).toBe(200);
    expect(own.json.total).toBe(2);
    expect(own.json.hours_read).toContain(hourName(now));
    const other = await replay("team-dlog-b");
    expect(other.status, other.text).toBe(200);
    expect(other.json).toMatchObject({ total: 0, hours_read: [] });
  });
});
