// MemRL escalate decisions reach audit_log through the EVENTS consumer: from POST /v1/policy/decide (whose decision
// the team object's journal flush logs, then publishes) and from a run's completion. In Node: the team objects are the
// Durable Object stand-in's, the decision log its bucket stand-in, audit_log read through GET /v1/audit.
import { describe, expect, it } from "vitest";
import type { VectorIndexDO } from "../../../durable-objects/vector-index-do";
import { runInDurableObject } from "../../../test/fakes/durable-objects";
import { createMemoryDecisionObjects } from "../../../test/fakes/node-stand-ins";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeGateTools } from "../../../test/node-d1/gate-tools";
import { makeDeps, makeJournalFlushNeeds } from "../../deps";
import type { EventBus } from "../../ports/event-bus";

// decide appends to the team object's journal (the real one over the stand-in's VECTOR_INDEX), as the Worker does
const h = await nodeHelpers({ deps: (base) => ({ decisionJournal: base.decisionJournal }) });
const { call, env, objects, token } = h;
const { audited, deliver } = nodeGateTools(h);

/** test/decision-log.ts's flushJournalTo: one journal flush of the team's object, its events sent to `events`. */
async function flushJournalTo(team: string, events: EventBus): Promise<void> {
  const needs = { ...makeJournalFlushNeeds(env), decisionObjects: createMemoryDecisionObjects(), events };
  const teamObject = objects.VECTOR_INDEX.get(objects.VECTOR_INDEX.idFromName(team));
  await runInDurableObject(teamObject, (o: VectorIndexDO) => o.flushDecisions(needs));
}

/** the team's policy.escalated audit entries, oldest first (GET /v1/audit lists newest first) */
const audits = async (teamId: string) => (await audited(teamId, "policy.escalated")).reverse();

describe("MemRL escalations in audit_log", () => {
  it("audits a decide that escalates (final attempt), not one that retries, once its flushed event is consumed", async () => {
    const queued: unknown[] = [];
    const deps = makeDeps(env);
    const t = await token("team-esc-audit");
    const decide = (attempt: number) =>
      call("POST", "/v1/policy/decide", {
        token: t,
        body: { memrl_mode: "enforce", failure_class: "timeout", attempt, max_attempts: 3, run_id: "run_esc" },
      });
    const retry = await decide(2);
    const escalate = await decide(3);
    expect([retry.json.selected_action, escalate.json.selected_action]).toEqual(["retry", "escalate"]);
    await flushJournalTo("team-esc-audit", { publish: async (e) => void queued.push(...e) });
    // only the escalation is published: a retry has no subscriber beyond the log, which holds it already
    expect(queued.map((e) => (e as { event_id: string }).event_id)).toEqual([escalate.json.decision_id]);
    expect(await audits("team-esc-audit")).toEqual([]);
    expect((await deliver(deps, queued)).retried).toEqual([]);
    const rowsNow = await audits("team-esc-audit");
    expect(rowsNow.map((r) => [r.id, r.subject_id])).toEqual([[`aud_memrl_${escalate.json.decision_id}`, "run_esc"]]);
    expect(rowsNow[0]?.metadata ?? {}).toMatchObject({
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
