// MemRL escalations in audit_log (pure): one row per escalate decision, idempotent by decision_id; nothing else.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WardenEvent } from "../../ports/event-bus";
import { decisionEscalationAudits } from "./decision-audit";

const decided = (id: string, selected: string, runId: string | null = "run_1") =>
  ({
    event_id: id,
    type: "policy.decided",
    team_id: "t",
    occurred_at: 5,
    decision: {
      decision_id: id,
      run_id: runId,
      task_id: null,
      failure_class: "timeout",
      attempt_bucket: "final",
      rule_id: "enforce.timeout.final",
      raw_action: "escalate",
      selected_action: selected,
      effective_mode: "enforce",
      profile_version: 2,
      created_at: 7,
    },
  }) as unknown as WardenEvent;

describe("decisionEscalationAudits", () => {
  it("audits exactly the decisions whose selected action is escalate, each under its decision id", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("escalate", "retry", "dead_letter"), { maxLength: 20 }), (actions) => {
        const events = actions.map((a, i) => decided(`d${i}`, a));
        const audits = decisionEscalationAudits(events);
        expect(audits.map((a) => a.id)).toEqual(
          actions.flatMap((a, i) => (a === "escalate" ? [`aud_memrl_d${i}`] : [])),
        );
      }),
    );
  });

  it("names the run (or the decision) and keeps the rule, class, bucket and mode", () => {
    const [withRun] = decisionEscalationAudits([decided("d1", "escalate")]);
    expect(withRun).toMatchObject({
      actor: "memrl",
      action: "policy.escalated",
      subjectType: "run",
      subjectId: "run_1",
      createdAt: 7,
      metadata: {
        decision_id: "d1",
        rule_id: "enforce.timeout.final",
        attempt_bucket: "final",
        effective_mode: "enforce",
      },
    });
    const [bare] = decisionEscalationAudits([decided("d2", "escalate", null)]);
    expect(bare).toMatchObject({ subjectType: "decision", subjectId: "d2" });
  });
});
