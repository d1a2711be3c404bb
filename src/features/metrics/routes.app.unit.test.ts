// GET /v1/metrics in Node (D1 stand-in, the decision log's bucket stand-in): every counter from seeded rows of one team,
// other teams excluded; windows; bad inputs.
import { describe, expect, it } from "vitest";
import { loggedDecision } from "../../../test/decision-log-fixture";
import { nodeHelpers } from "../../../test/node-d1/app";
import { testDepsOver } from "../../../test/node-d1/consumers";
import { attemptOp, deadLetterOp, legacyApprovalOp, recordSeeds, runOp } from "../../../test/record-seeds";
import type { SessionEventRow } from "../../ports/memory-store";
import { appendDecisions } from "../policy";
import type { LoggedDecision } from "../policy/store/policy-store-port";

const HOUR = 3_600_000;
const warden = await nodeHelpers();
const { call, token, db, deps: appDeps } = warden;

/** Writes decisions through the log's writer (bucket objects, counters, manifest), as the deciding isolate would. */
const logDecisions = (decisions: LoggedDecision[]) => appendDecisions(decisions, appDeps);

/** seeds rows through the features' own stores, as their writers leave them (setup only: every check reads GET /v1/metrics) */
const seeds = recordSeeds(db);

async function seed(team: string, now: number) {
  const attempts = (
    [
      [1, 300, 50, now - HOUR],
      [2, 200, 70, now - 2 * HOUR],
      [3, 999, 999, now - 48 * HOUR],
    ] as const
  ).map(([i, tokens_in, tokens_out, at]) =>
    attemptOp({
      attempt_id: `${team}-a${i}`,
      run_id: `${team}-run`,
      order_id: "o",
      op_id: `${team}-op${i}`,
      outcome: "PASS",
      next: "complete",
      tokens_in,
      tokens_out,
      started_at: at,
      ended_at: at,
    }),
  );
  const approvals = (
    [
      [1, "auto_allow", "timer"],
      [2, "allow", "policy"],
      [3, "retry", "ann"],
      [4, "deny", "bob"],
    ] as const
  ).map(([i, decision, approver]) =>
    legacyApprovalOp({
      id: `${team}-ap${i}`,
      team_id: team,
      run_id: "r",
      op_id: `op${i}`,
      gate_id: `g${i}`,
      policy_key: "k",
      decision,
      approver,
      created_at: now - HOUR,
    }),
  );
  const deadLetter = (id: string, op_id: string, reason_code: string, created_at: number) =>
    deadLetterOp({ id, team_id: team, run_id: "r", op_id, reason_code, payload: null, created_at });
  await seeds.records([
    runOp({ run_id: `${team}-run`, team_id: team, goal: "g", status: "RUNNING", created_at: now }),
    ...attempts,
    ...approvals,
    deadLetter(`${team}-dl1`, "o1", "wrong_value", now - HOUR),
    deadLetter(`${team}-dl2`, "o2", "x", now - 72 * HOUR),
    { t: "dead_letter_resolved", id: `${team}-dl2`, resolved_at: now - 70 * HOUR, resolver: "ann" },
  ]);
  const decisions: [string, string][] = [
    ["default.missing_metadata", "escalate"],
    ["default.unknown_failure_class", "escalate"],
    ["enforce.vibe_fail.middle", "retry"],
    ["enforce.vibe_fail.final", "escalate"],
  ];
  // through the decision log's writer: R2 objects and the counters the metrics read
  await logDecisions(
    decisions.map(([rule, action], i) =>
      loggedDecision(team, `${team}-d${i}`, now - HOUR, {
        failure_class: null,
        rule_id: rule,
        raw_action: action,
        selected_action: action,
      }),
    ),
  );
  const FP = "aaaaaaaaaaaaaaaa";
  /** one session episode; `servedRoute` links it to an activation that served that route */
  const session = async (i: number, kind: string, route: string, outcome: string, at: number, servedRoute?: string) => {
    if (servedRoute)
      await seeds.recordActivation({
        id: `${team}-act${i}`,
        teamId: team,
        sessionKind: kind,
        agentId: null,
        needFingerprint: FP,
        routeId: servedRoute,
        llmCallsAvoided: 1,
        createdAt: at - 1,
      });
    await seeds.insertSessionEvent({
      id: `${team}-s${i}`,
      teamId: team,
      sessionKind: kind,
      command: "warden route",
      outcome: outcome as SessionEventRow["outcome"],
      needFingerprint: FP,
      routeId: route,
      agentId: "a",
      sessionId: `s${i}`,
      diagnosticCodes: [],
      activationId: servedRoute ? `${team}-act${i}` : null,
      routeSource: servedRoute ? "memory" : null,
      createdAt: at,
    });
  };
  await session(1, "warden.worker", "r1", "resolved", now - 5 * 24 * HOUR);
  // served r1 and resolved on it, after a worker resolution: avoided, cross-runtime
  await session(2, "warden.agent.claude", "r1", "resolved", now - 3 * HOUR, "r1");
  // served r1, taken from memory and escalated with no cause given: a stale serve (cross-runtime: r1 was last
  // resolved by claude)
  await session(3, "warden.worker", "r1", "escalated", now - 2 * HOUR, "r1");
}

describe("GET /v1/metrics", () => {
  it("reports the team's counters and evaluation metrics over the window", async () => {
    const now = Date.now();
    await seed("team-met", now);
    await seed("team-met-other", now);
    const { deliver } = testDepsOver(warden, now);
    // the fields a run sends beside these (strict: contracts/event-fields.ts)
    const gateBase = { op_id: "op", policy_key: "wrong_value", rule_id: null, opened_by: "worker" };
    const gateOpened = { ...gateBase, timeout_ms: null, deadline_at: null, digest: null, context: {} };
    const gateDecided = { ...gateBase, subject_type: "order", status: "approved", outcome: "approved", channel: "api" };
    await deliver([
      {
        event_id: "gm-1",
        type: "gate.opened",
        seq: 1,
        ...gateOpened,
        team_id: "team-met",
        run_id: "r",
        gate_id: "g1",
        kind: "soft",
        occurred_at: now - 2 * HOUR,
      },
      {
        event_id: "gm-2",
        type: "gate.opened",
        seq: 2,
        ...gateOpened,
        team_id: "team-met",
        run_id: "r",
        gate_id: "g3",
        kind: "hard",
        occurred_at: now - 2 * HOUR,
      },
      {
        event_id: "gm-3",
        type: "gate.opened",
        seq: 3,
        ...gateOpened,
        team_id: "team-met",
        run_id: "r",
        gate_id: "g4",
        kind: "hard",
        occurred_at: now - 2 * HOUR,
      },
      {
        event_id: "gm-4",
        type: "gate.decided",
        seq: 4,
        ...gateDecided,
        team_id: "team-met",
        run_id: "r",
        gate_id: "g3",
        kind: "hard",
        occurred_at: now - HOUR,
        decided_by: "ann",
        decision: "retry",
        latency_ms: 60_000,
      },
      {
        event_id: "gm-5",
        type: "gate.decided",
        seq: 5,
        ...gateDecided,
        team_id: "team-met",
        run_id: "r",
        gate_id: "g4",
        kind: "hard",
        occurred_at: now - HOUR,
        decided_by: "bob",
        decision: "deny",
        latency_ms: 180_000,
      },
      {
        event_id: "gm-6",
        type: "gate.decided",
        seq: 6,
        ...gateDecided,
        team_id: "team-met",
        run_id: "r",
        gate_id: "g1",
        kind: "soft",
        occurred_at: now - HOUR,
        decided_by: "timer",
        decision: "auto_allow",
        latency_ms: 120_000,
      },
    ]);
    await seeds.eventDeadLetters.record([
      {
        id: "evt:x",
        teamId: "team-met",
        eventId: "x",
        type: "run.completed",
        body: "{}",
        attempts: 4,
        receivedAt: now - HOUR,
      },
    ]);
    const res = await call("GET", "/v1/metrics", { token: await token("team-met", ["runs:read"]) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      team_id: "team-met",
      window: "24h",
      tokens_in: 500,
      tokens_out: 120,
      gates_by_kind: { auto: 0, soft: 1, hard: 2, deny: 0 },
      policy_soft_gate_count: 1,
      policy_hard_gate_count: 2,
      auto_approvals: 2,
      human_approvals: 2,
      human_approval_latency_ms: { p50: 60_000, p95: 180_000, samples: 2 },
      dead_letters: { open: 1, created: 1 },
      dlq_count: 1,
      decisions: 4,
      escalation_rate: 0.75,
      unknown_failure_class_ratio: 0.25,
      missing_metadata_count: 1,
      llm_calls_avoided_count: 1,
      routing_repeat_accuracy: 0.5,
      cross_runtime_continuity: 0.5,
      stale_serves: 1,
      routing_sessions: 2,
      routing_repeats: 2,
      routes_served: 2,
      cross_runtime_repeats: 2,
      mode_ceiling: "enforce",
      rollback_count: 0,
    });
    const week = await call("GET", "/v1/metrics?window=7d", { token: await token("team-met", ["policy:admin"]) });
    expect(week.json).toMatchObject({ window: "7d", tokens_in: 1499, dead_letters: { open: 1, created: 2 } });
  });

  it("counts decisions exactly at a window edge inside an hour (counters for whole hours, objects for the first)", async () => {
    const team = "team-met-edge";
    const now = Date.now();
    const MIN = 60_000;
    const logged = [
      loggedDecision(team, "e-1", now - 150 * MIN, { selected_action: "escalate" }),
      loggedDecision(team, "e-2", now - 100 * MIN, { selected_action: "escalate" }),
      loggedDecision(team, "e-3", now - 80 * MIN, { rule_id: "default.unknown_failure_class" }),
      loggedDecision(team, "e-4", now - 61 * MIN, { selected_action: "escalate" }),
      loggedDecision(team, "e-5", now - 20 * MIN),
    ];
    await logDecisions(logged);
    const t = await token(team, ["policy:admin"]);
    for (const [window, ms] of [
      ["90m", 90 * MIN],
      ["2h", 120 * MIN],
      ["3h", 180 * MIN],
      ["30m", 30 * MIN],
    ] as const) {
      const res = await call("GET", `/v1/metrics?window=${window}`, { token: t });
      expect(res.status, res.text).toBe(200);
      // the expectation is the per-decision filter a policy_decision table answered with
      const inWindow = logged.filter((d) => d.created_at >= now - ms);
      const escalated = inWindow.filter((d) => d.selected_action === "escalate").length;
      expect(res.json.decisions, window).toBe(inWindow.length);
      expect(res.json.escalation_rate, window).toBe(
        inWindow.length === 0 ? null : Math.round((escalated / inWindow.length) * 10_000) / 10_000,
      );
    }
  });

  it.each([["?window=forever"], ["?window=31d"], ["?window=0h"], ["?other=1"]])(
    "refuses %s with 400 validation_failed",
    async (query) => {
      const res = await call("GET", `/v1/metrics${query}`, { token: await token("t", ["runs:read"]) });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
    },
  );

  it("needs runs:read or policy:admin", async () => {
    expect((await call("GET", "/v1/metrics")).status).toBe(401);
    const res = await call("GET", "/v1/metrics", { token: await token("t", ["events:write", "memory:read"]) });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
  });
});
