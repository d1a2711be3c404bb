// Seed 004 over runs in Node (run object and D1 stand-ins): the full start snapshot (R1), decide with a run_id uses it,
// stale snapshots warn, R5 grounding.
import { describe, expect, it } from "vitest";
import { DAY, runCompleted } from "../../../test/learning-events";
import { nodeHelpers } from "../../../test/node-d1/app";
import { testDepsOver } from "../../../test/node-d1/consumers";
import { createMemoryHints } from "../memory";
import { retryEntryId } from "./domain";
import { createD1LearningStore } from "./store/learning-store";

const warden = await nodeHelpers();
const { call, token, db } = warden;
/** testDeps(now) over the same database and objects as `call` */
const testDeps = (now: number) => testDepsOver(warden, now);

const teamOf = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}`;

/** planted as a learned adjustment would be stored (no route writes one directly): one guarded learning-store write */
async function adjust(teamId: string, failureClass: string, maxAttempts: number, at = Date.now()) {
  const store = createD1LearningStore(db);
  const runId = `planted:${crypto.randomUUID()}`;
  const prior = (await store.loadLearningState(teamId, runId, [], [failureClass])).retries.get(failureClass);
  const priorSeq = prior ? Number(prior.row.ledger_seq) : null;
  const seq = (priorSeq ?? 0) + 1;
  const state = {
    team_id: teamId,
    failure_class: failureClass,
    recovered_count: 0,
    exhausted_count: 0,
    recovery_attempts_sum: 0,
    backoff_multiplier: 1,
    max_attempts_override: maxAttempts,
    ledger_seq: seq,
    updated_at: at,
  };
  const planted = await store.commitLearning({
    eventId: runId,
    teamId,
    runId,
    now: at,
    audit: null,
    writes: [
      {
        target: "retry",
        ledgerId: `pml_${runId}`,
        teamId,
        runId,
        entryId: retryEntryId(teamId, failureClass),
        ledgerKey: `retry:${failureClass}`,
        seq,
        change: { kind: "planted", after: state },
        createdAt: at,
        expect: priorSeq === null ? { kind: "none" } : { kind: "seq", seq: priorSeq },
        state,
      },
    ],
  });
  expect(planted.ok).toBe(true);
}

/** a decision that needs the max_attempts override: attempt 3 is "middle" under 5 and "overflow" under 2 */
const decideBody = (runId?: string) => ({
  memrl_mode: "enforce",
  failure_class: "phase_timeout",
  attempt: 3,
  ...(runId ? { run_id: runId } : {}),
});

describe("the run's policy-memory snapshot", () => {
  it("holds the team's entries and routing weights at start and keeps them while policy memory changes", async () => {
    const team = teamOf("snap");
    const tok = await token(team);
    const { deliver } = testDeps(Date.now());
    await deliver([runCompleted(team, "r1", [{ skill: "code.test", outcome: "success" }], Date.now() - DAY)]);
    const run = await call("POST", "/v1/runs", { token: tok, body: { goal: "g", skills: ["code.test"] } });
    expect(run.status).toBe(201);
    const memory = run.json.policy_snapshot.policy_memory;
    expect(memory.entries).toEqual([
      expect.objectContaining({ skill_name: "code.test", success_count: 1, failure_count: 0 }),
    ]);
    expect(Object.keys(memory.routing_weights)).toEqual(["code.test"]);
    expect(memory.reset).toBeNull();

    await deliver([runCompleted(team, "r2", [{ skill: "code.edit", outcome: "failure" }], Date.now())]);
    const view = (await call("GET", `/v1/runs/${run.json.run_id}`, { token: tok })).json;
    expect(view.policy_snapshot).toEqual(run.json.policy_snapshot);
    const live = (await call("GET", "/v1/policy-memory", { token: tok })).json;
    expect(live.entries.map((e: { skill_name: string }) => e.skill_name)).toEqual(["code.edit", "code.test"]);
  });
});

describe("POST /v1/policy/decide with a run_id", () => {
  it("uses the run's snapshot, not live overrides, and warns that the snapshot is behind", async () => {
    const team = teamOf("dec");
    const tok = await token(team);
    await adjust(team, "phase_timeout", 5, Date.now() - DAY);
    const run = (await call("POST", "/v1/runs", { token: tok, body: { goal: "g" } })).json;
    expect(run.policy_snapshot.retry_adjustments.phase_timeout.max_attempts_override).toBe(5);
    const before = (await call("POST", "/v1/policy/decide", { token: tok, body: decideBody(run.run_id) })).json;
    expect(before.attempt_bucket).toBe("middle");
    expect(before.warnings ?? []).toEqual([]);

    await adjust(team, "phase_timeout", 2, Date.now() + 1000);
    const withRun = (await call("POST", "/v1/policy/decide", { token: tok, body: decideBody(run.run_id) })).json;
    const live = (await call("POST", "/v1/policy/decide", { token: tok, body: decideBody() })).json;
    expect(withRun.attempt_bucket).toBe("middle");
    expect(live.attempt_bucket).toBe("overflow");
    expect(withRun.warnings).toEqual([expect.stringMatching(/^stale_snapshot: policy memory changed at /)]);
    expect(live.warnings).toBeUndefined();
  });

  it("warns when the run's snapshot is older than 24 h and still decides with it", async () => {
    const team = teamOf("old");
    const tok = await token(team);
    await adjust(team, "phase_timeout", 5, Date.now() - DAY);
    const run = (await call("POST", "/v1/runs", { token: tok, body: { goal: "g" } })).json;
    const { callApp } = testDeps(Date.now() + DAY + 3_600_000);
    const res = await callApp("POST", "/v1/policy/decide", { token: tok, body: decideBody(run.run_id) });
    expect(res.status).toBe(200);
    expect(res.json.attempt_bucket).toBe("middle");
    expect(res.json.warnings).toEqual([expect.stringMatching(/^stale_snapshot: .* 25 h old \(limit 24 h\)/)]);
  });

  it("decides with live policy memory and says so for a run the team does not have", async () => {
    const team = teamOf("nor");
    const tok = await token(team);
    await adjust(team, "phase_timeout", 2);
    const other = (await call("POST", "/v1/runs", { token: await token(teamOf("oth")), body: { goal: "g" } })).json;
    for (const runId of ["run_nope", other.run_id]) {
      const res = await call("POST", "/v1/policy/decide", { token: tok, body: decideBody(runId) });
      expect(res.status).toBe(200);
      expect(res.json.attempt_bucket).toBe("overflow");
      expect(res.json.warnings).toEqual([`run ${runId} not found for this team: decided with live policy memory`]);
    }
  });
});

describe("R5: policy memory never affects grounding", () => {
  it("answers memory queries and run hints identically before and after policy memory learns about the same skills", async () => {
    const team = teamOf("r5");
    const tok = await token(team);
    const texts = [
      "code.test flakes when the database container starts late; wait for the health check",
      "code.edit breaks imports when files move; run the type checker before tests",
      "incident.db failover takes 40 s; retry after the primary is promoted",
    ];
    for (const text of texts) {
      const w = await call("POST", "/v1/memory", {
        token: tok,
        body: { namespace: `team/${team}/org/lessons`, class: "semantic", text },
      });
      expect(w.status).toBe(201);
    }
    // one fixed clock (recency is part of the score) and a hints budget no loaded machine exceeds
    const { deps: fixed, callApp } = testDeps(Date.now());
    const hints = createMemoryHints(fixed.memory, { budgetMs: 20_000 });
    const ask = async () => ({
      query: (
        await callApp("POST", "/v1/memory/query", {
          token: tok,
          body: { namespaces: [`team/${team}/org`], text: "code.test code.edit incident.db", top_k: 10 },
        })
      ).json.results.map((r: { id: string; score: number }) => [r.id, r.score]),
      hints: (
        await hints.forRunStart(team, { goal: "code.test incident.db", taskKeys: ["code.edit"] }, fixed.clock.now())
      ).map((h) => [h.id, h.score]),
    });
    const before = await ask();
    expect(before.query).toHaveLength(3);
    expect(before.hints.length).toBeGreaterThan(0);

    // policy memory learns strongly opposite weights for the skills the memories talk about
    const { deliver } = testDeps(Date.now());
    const runs = Array.from({ length: 6 }, (_, i) =>
      runCompleted(
        team,
        `r5-${i}`,
        [
          { skill: "code.test", outcome: "success" },
          { skill: "code.edit", outcome: "failure", failure_class: `c${i}` },
        ],
        Date.now(),
      ),
    );
    await deliver(runs);
    const weights = (await call("GET", "/v1/policy-memory", { token: tok })).json.routing_weights;
    expect(weights["code.test"]).toBeGreaterThan(1.5);
    expect(weights["code.edit"]).toBeLessThan(0.5);

    expect(await ask()).toEqual(before);
  });
});
