// MemRL escalations in audit_log (seed 003 §14): every logged decision whose selected action is `escalate` becomes
// one audit row, written by the EVENTS consumer with its group (idempotent by decision id).

import type { InternalEvent } from "../../../contracts/internal-events";
import type { AuditEntry } from "../../ports/audit-log";
import type { WardenEvent } from "../../ports/event-bus";

type DecisionLike = Record<string, unknown> & { decision_id?: unknown; selected_action?: unknown };
const str = (v: unknown) => (typeof v === "string" ? v : null);

/** The audit rows of a group's escalate decisions (pure; one id per decision, so both write paths give one row). */
export function decisionEscalationAudits(events: readonly (WardenEvent | InternalEvent)[]): AuditEntry[] {
  return events.flatMap((e) => {
    if (e.type !== "policy.decided") return [];
    const d = (e as { decision?: DecisionLike }).decision;
    const id = str(d?.decision_id);
    if (!d || !id || d.selected_action !== "escalate") return [];
    const runId = str(d.run_id);
    return [
      {
        id: `aud_memrl_${id}`,
        teamId: e.team_id,
        actor: "memrl",
        action: "policy.escalated",
        subjectType: runId ? "run" : "decision",
        subjectId: runId ?? id,
        metadata: {
          decision_id: id,
          run_id: runId,
          task_id: str(d.task_id),
          failure_class: str(d.failure_class),
          attempt_bucket: str(d.attempt_bucket),
          rule_id: str(d.rule_id),
          raw_action: str(d.raw_action),
          effective_mode: str(d.effective_mode),
          profile_version: typeof d.profile_version === "number" ? d.profile_version : null,
        },
        createdAt: typeof d.created_at === "number" ? d.created_at : e.occurred_at,
      },
    ];
  });
}
