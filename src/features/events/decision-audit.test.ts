// MemRL escalate decisions reach audit_log through the EVENTS consumer: from POST /v1/policy/decide (whose decision
// the team object's journal flush logs, then publishes) and from a run's completion.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { flushJournalTo } from "../../../test/decision-log";
import { apiRequest, readResponse, token } from "../../../test/helpers";
import { deliver, rows } from "../../../test/learning";
import { createApp } from "../../app";
import { makeDeps } from "../../deps";

const audits = (teamId: string) =>
  rows<{ id: string; subject_id: string; metadata: string }>(
    "SELECT id, subject_id, metadata FROM audit_log WHERE action = 'policy.escalated' AND team_id = ? ORDER BY id",
    teamId,
  );

describe("MemRL escalations in audit_log", () => {
  it("audits a decide that escalates (final attempt), not one that retries, once its flushed event is consumed", async () => {
    const queued: unknown[] = [];
    const deps = makeDeps(env);
    const app = createApp();
    const t = await token("team-esc-audit");
    const ctx = createExecutionContext();
    const decide = async (attempt: number) =>
      readResponse(
        await app.fetch(
          apiRequest("POST", "/v1/policy/decide", {
            token: t,
            body: { memrl_mode: "enforce", failure_class: "timeout", attempt, max_attempts: 3, run_id: "run_esc" },
          }),
          { deps },
          ctx,
        ),
      );
    const retry = await decide(2);
    const escalate = await decide(3);
    expect([retry.json.selected_action, escalate.json.selected_action]).toEqual(["retry", "escalate"]);
    await waitOnExecutionContext(ctx);
    await flushJournalTo("team-esc-audit", { publish: async (e) => void queued.push(...e) });
    // only the escalation is published: a retry has no subscriber beyond the log, which holds it already
    expect(queued.map((e) => (e as { event_id: string }).event_id)).toEqual([escalate.json.decision_id]);
    expect(await audits("team-esc-audit")).toEqual([]);
    expect((await deliver(deps, queued)).retried).toEqual([]);
    const rowsNow = await audits("team-esc-audit");
    expect(rowsNow.map((r) => [r.id, r.subject_id])).toEqual([[`aud_memrl_${escalate.json.decision_id}`, "run_esc"]]);
    expect(JSON.parse(rowsNow[0]?.metadata ?? "{}")).toMatchObject({
      attempt_bucket: "final",
      effective_mode: expect.any(String),
    });
  });

  it("audits an escalate decision from the queue once, however often it is delivered", async () => {
    const deps = makeDeps(env);
    const event = {
      event_id: "dec-q-1",
      type: "policy.decided",
      team_id: "team-esc-queue",
      occurred_at: Date.now(),
      decision: {
        decision_id: "dec-q-1",
        team_id: "team-esc-queue",
        run_id: "run_q",
        task_id: null,
        inputs: { failure_class: "timeout", attempt: 3 },
        inputs_digest: "",
        profile_version: 0,
        requested_mode: "enforce",
        effective_mode: "off",
        ceiling: "off",
        failure_class: "timeout",
        attempt_bucket: "final",
        rule_id: "off.timeout.final",
        raw_action: "escalate",
        selected_action: "escalate",
        created_at: Date.now(),
      },
    };
    await deliver(deps, [event]);
    await deliver(deps, [event]);
    expect((await audits("team-esc-queue")).map((r) => r.id)).toEqual(["aud_memrl_dec-q-1"]);
  });
});
