// evaluation_trend_regression_gate over HTTP, through the whole app in Node (nodeHelpers): enforce promotions carry replay and trend to their gate, or are refused.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loggedDecision } from "../../../test/decision-log-fixture";
import { nodeHelpers } from "../../../test/node-d1/app";
import { tableRows } from "../../../test/node-d1/table-rows";
import { gateRules } from "../gates/store/tables";
import { routePinRequests } from "../memory/store/tables";
import { appendDecisions } from "./decision-log";
import { DEFAULT_PROFILE } from "./default-profile";
import type { LoggedDecision } from "./store/policy-store-port";
import { modeCeilingRequests } from "./store/tables";

const h = await nodeHelpers();
const { call, deps, teamTokens } = h;
const recordRows = tableRows(h);
/** Writes decisions through the log's writer into the decision log's bucket stand-in, as the deciding isolate would. */
const logDecisions = (decisions: LoggedDecision[]) => appendDecisions(decisions, deps);

const DAY = 86_400_000;
const inputs = { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 };

/** `n` decisions of `team` logged `daysAgo` days ago, the first `escalated` of them escalated */
const logged = (team: string, tag: string, n: number, daysAgo: number, escalated: number): LoggedDecision[] =>
  Array.from({ length: n }, (_, i) =>
    loggedDecision(team, `dec_${team}_${tag}_${i}`, Date.now() - daysAgo * DAY + i, {
      inputs,
      inputs_digest: `digest-${i}`,
      ...(i < escalated
        ? { rule_id: "enforce.fallback", raw_action: "escalate" as const, selected_action: "escalate" as const }
        : {}),
    }),
  );

const enforceProfile = { ...DEFAULT_PROFILE, default_mode: "enforce" as const };
/** the enforce profile with the rule the logged decisions took turned to escalate: a change replay must see */
const stricter = {
  ...enforceProfile,
  rules: enforceProfile.rules.map((r) =>
    r.rule_id === "enforce.vibe_fail.middle" ? { ...r, action: "escalate" as const } : r,
  ),
};

const gateOf = (tok: string, p: { run_id: string; gate_id: string }) =>
  call("GET", `/v1/runs/${p.run_id}/gates/${p.gate_id}`, { token: tok });

describe("enforce promotion evidence", () => {
  it("an enforce profile's gate carries the replay of the candidate window and the trend comparison", async () => {
    const team = "promo-replay";
    const t = await teamTokens(team);
    await logDecisions([...logged(team, "b", 20, 10, 0), ...logged(team, "c", 25, 1, 0)]);
    const res = await call("PUT", "/v1/policy/profile", { token: t.admin, body: stricter });
    expect(res.status, res.text).toBe(202);
    const gate = await gateOf(t.approver, res.json);
    expect(gate.status, gate.text).toBe(200);
    // only the candidate window (last 7 days) is replayed; every one of its decisions changes rule
    expect(gate.json.context.replay).toMatchObject({
      decisions: 25,
      changes: 25,
      by_rule: [{ from_rule_id: "enforce.vibe_fail.middle", to_rule_id: "enforce.vibe_fail.middle", count: 25 }],
    });
    expect(gate.json.context.replay.example_decision_ids).toHaveLength(10);
    expect(gate.json.context.trend).toMatchObject({
      regressed: false,
      regressions: [],
      baseline: { decisions: 20, escalation_rate: 0 },
      candidate: { decisions: 25, escalation_rate: 0 },
    });
  });

  it("refuses an enforce profile with 409 regression when the candidate window escalates more, storing nothing", async () => {
    const team = "promo-regress";
    const t = await teamTokens(team);
    await logDecisions([...logged(team, "b", 20, 10, 1), ...logged(team, "c", 20, 1, 8)]);
    const res = await call("PUT", "/v1/policy/profile", { token: t.admin, body: enforceProfile });
    expect(res.status, res.text).toBe(409);
    expect(res.json.error.code).toBe("regression");
    expect(res.json.error.message).toContain("escalation_rate");
    expect(res.json.error.details.trend.regressions).toContainEqual({
      metric: "escalation_rate",
      baseline: 0.05,
      candidate: 0.4,
      threshold: 0.05,
    });
    expect(await deps.policyStore.getProfile(team, 1)).toBeNull();

    // raising the mode ceiling to enforce is the same promotion, refused the same way
    const ceiling = await call("PUT", "/v1/policy/mode-ceiling", { token: t.admin, body: { ceiling: "enforce" } });
    expect(ceiling.status, ceiling.text).toBe(409);
    expect(ceiling.json.error.code).toBe("regression");

    // a proposal that does not promote to enforce is unaffected: no evidence, no refusal
    const observe = await call("PUT", "/v1/policy/profile", {
      token: t.admin,
      body: { ...DEFAULT_PROFILE, default_mode: "observe" },
    });
    expect(observe.status, observe.text).toBe(202);
    // version 1: the refused enforce proposal used up no version
    expect(observe.json.version).toBe(1);
    const gate = await gateOf(t.approver, observe.json);
    expect(gate.json.context.replay).toBeUndefined();
    expect(gate.json.context.trend).toBeUndefined();
    const lower = await call("PUT", "/v1/policy/mode-ceiling", { token: t.admin, body: { ceiling: "observe" } });
    expect(lower.status, lower.text).toBe(202);
    expect(lower.json.version).toBe(1);
  });

  it("a route pin passes the same trend gate: refused on a regression with nothing stored, else its gate shows the trend", async () => {
    const pin = (tok: string) =>
      call("POST", "/v1/routes/overrides", {
        token: tok,
        body: { need_fingerprint: "ab".repeat(16), route_id: "route.pinned", action: "pin" },
      });
    const team = "promo-pin-regress";
    const t = await teamTokens(team);
    await logDecisions([...logged(team, "b", 20, 10, 1), ...logged(team, "c", 20, 1, 8)]);
    const refused = await pin(t.admin);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error.code).toBe("regression");
    expect(refused.json.error.details.trend.regressions[0]).toMatchObject({ metric: "escalation_rate" });
    const stored = await recordRows(routePinRequests, eq(routePinRequests.teamId, team));
    expect(stored.length).toBe(0);

    const calm = "promo-pin-calm";
    const c = await teamTokens(calm);
    await logDecisions([...logged(calm, "b", 20, 10, 1), ...logged(calm, "c", 20, 1, 1)]);
    const accepted = await pin(c.admin);
    expect(accepted.status, accepted.text).toBe(202);
    const gate = await gateOf(c.approver, accepted.json);
    expect(gate.json.context.trend).toMatchObject({ regressed: false, regressions: [] });
  });

  it("a ceiling raise replays the active profile under the raised ceiling", async () => {
    const team = "promo-ceiling";
    const t = await teamTokens(team);
    // made under an observe ceiling (legacy retry selected by the observe rule): the raise re-decides them under enforce rules
    const underObserve = logged(team, "c", 5, 1, 0).map((d) => ({
      ...d,
      ceiling: "observe" as const,
      effective_mode: "observe" as const,
      inputs: { ...inputs, failure_class: "crank_blocked", legacy_action: "retry" },
      failure_class: "crank_blocked",
      rule_id: "observe.crank_blocked.middle",
    }));
    await logDecisions(underObserve);
    const res = await call("PUT", "/v1/policy/mode-ceiling", { token: t.admin, body: { ceiling: "enforce" } });
    expect(res.status, res.text).toBe(202);
    const gate = await gateOf(t.approver, res.json);
    expect(gate.json.context.replay.decisions).toBe(5);
    expect(gate.json.context.replay.by_rule[0]).toMatchObject({ to_rule_id: "enforce.crank_blocked.middle", count: 5 });
  });

  it("shows changed decisions per class, parity and conformance on the gate, and an approval must acknowledge each changed class", async () => {
    const team = "promo-acks";
    const t = await teamTokens(team);
    const withLegacy = logged(team, "l", 4, 1, 0).map((d) => ({ ...d, inputs: { ...inputs, legacy_action: "retry" } }));
    await logDecisions([...logged(team, "c", 25, 1, 0), ...withLegacy]);
    const res = await call("PUT", "/v1/policy/profile", { token: t.admin, body: stricter });
    expect(res.status, res.text).toBe(202);
    const gate = await gateOf(t.approver, res.json);
    expect(gate.json.context).toMatchObject({
      replay: {
        decisions: 29,
        changes: 29,
        ack_threshold: 5,
        by_class: [{ failure_class: "vibe_fail", decisions: 29, changes: 29, ack_required: true }],
      },
      parity: { checked: 4, passed: 4 },
      conformance: { passed: expect.any(Number) },
      acks_required: ["vibe_fail"],
    });
    expect(gate.json.context.conformance.passed).toBe(gate.json.context.conformance.cases);
    expect(gate.json.context.promotion_checks).toContain("ack:vibe_fail");

    const approval = (note: string) =>
      call("POST", "/v1/approvals", {
        token: t.approver,
        body: {
          run_id: res.json.run_id,
          op_id: res.json.op_id,
          policy_key: "policy_deploy",
          decision: "approve_retry",
          note,
        },
      });
    const bare = await approval("replay looks right");
    expect(bare.status, bare.text).toBe(400);
    expect(bare.json.error.code).toBe("validation_failed");
    expect(bare.json.error.message).toContain("missing ack:vibe_fail");
    // refused: the gate is still pending and the profile not active
    expect((await gateOf(t.approver, res.json)).json.status).toBe("pending");
    const before = await call("GET", "/v1/policy/profile", { token: t.admin });
    expect(before.headers.get("x-profile-version")).toBe("0");

    const acked = await approval("vibe_fail escalates at middle on purpose, ack:vibe_fail");
    expect(acked.status, acked.text).toBe(200);
    const after = await call("GET", "/v1/policy/profile", { token: t.admin });
    expect(after.headers.get("x-profile-version")).toBe("1");
  });

  it("refuses with 422 an enforce profile failing conformance cases, listing them, storing nothing", async () => {
    const team = "promo-conformance";
    const t = await teamTokens(team);
    const failOpen = {
      ...enforceProfile,
      unknown_failure_class_action: "retry",
      rules: enforceProfile.rules.map((r) =>
        r.rule_id === "enforce.vibe_fail.overflow" ? { ...r, action: "retry" as const } : r,
      ),
    };
    const res = await call("PUT", "/v1/policy/profile", { token: t.admin, body: failOpen });
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.code).toBe("rejected");
    expect(res.json.error.details.rule_ids.sort()).toEqual([
      "conformance.bucket.overflow_escalates.vibe_fail",
      "conformance.fail_closed.enforce_ignores_legacy",
      "conformance.fail_closed.unknown_failure_class",
    ]);
    expect(res.json.error.message).toContain("action is retry, expected escalate");
    expect(await deps.policyStore.getProfile(team, 1)).toBeNull();
    const open = await call("GET", "/v1/gates?status=open", { token: t.approver });
    expect(open.json.gates).toEqual([]);

    // the same profile proposed in observe is no promotion: no checks, accepted
    const observe = await call("PUT", "/v1/policy/profile", {
      token: t.admin,
      body: { ...failOpen, default_mode: "observe" },
    });
    expect(observe.status, observe.text).toBe(202);
    expect(observe.json.version).toBe(1);

    // active in observe, it is promoted by raising the ceiling: the same cases refuse that raise, storing nothing
    const approved = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: {
        run_id: observe.json.run_id,
        op_id: observe.json.op_id,
        policy_key: "policy_deploy",
        decision: "approve_retry",
        note: "observe only",
      },
    });
    expect(approved.status, approved.text).toBe(200);
    const raise = await call("PUT", "/v1/policy/mode-ceiling", { token: t.admin, body: { ceiling: "enforce" } });
    expect(raise.status, raise.text).toBe(422);
    expect(raise.json.error.details.rule_ids).toContain("conformance.fail_closed.unknown_failure_class");
    const requests = await recordRows(modeCeilingRequests, eq(modeCeilingRequests.teamId, team));
    expect(requests.length).toBe(0);
  });

  it("gate-rule changes pass the same trend gate: PUT and PATCH refused on a regression with nothing stored, else the gate shows the trend", async () => {
    const rules = { rules: [{ policy_key: "schema_invalid", kind: "soft", timeout_ms: 60_000 }] };
    const storedRules = async (team: string) => (await recordRows(gateRules, eq(gateRules.teamId, team))).length;
    const team = "promo-rules-regress";
    const t = await teamTokens(team);
    await logDecisions([...logged(team, "b", 20, 10, 1), ...logged(team, "c", 20, 1, 8)]);
    for (const method of ["PUT", "PATCH"] as const) {
      const refused = await call(method, "/v1/policy/gates", { token: t.admin, body: rules });
      expect(refused.status, refused.text).toBe(409);
      expect(refused.json.error.code).toBe("regression");
      expect(refused.json.error.message).toContain("escalation_rate");
      expect(refused.json.error.details.trend.regressions[0]).toMatchObject({
        metric: "escalation_rate",
        candidate: 0.4,
      });
    }
    expect(await storedRules(team)).toBe(0);
    expect((await call("GET", "/v1/gates?status=open", { token: t.approver })).json.gates).toEqual([]);

    const calm = "promo-rules-calm";
    const c = await teamTokens(calm);
    await logDecisions([...logged(calm, "b", 20, 10, 1), ...logged(calm, "c", 20, 1, 1)]);
    const accepted = await call("PUT", "/v1/policy/gates", { token: c.admin, body: rules });
    expect(accepted.status, accepted.text).toBe(202);
    const gate = await gateOf(c.approver, accepted.json);
    expect(gate.json.context.trend).toMatchObject({
      regressed: false,
      regressions: [],
      candidate: { decisions: 20, escalation_rate: 0.05 },
    });
    expect(gate.json.context.diff).toBeDefined();
  });
});
