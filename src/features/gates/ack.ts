// Use-case: acknowledge an open gate (the on-call's "I am on it") — the first acknowledgement stays, it is audited once,
// and the answer says when the gate's resolve SLA falls due. Shared by POST /v1/gates/:gate_id/ack and Slack's button.
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { AuditLogStore } from "../../ports/audit-log";
import type { RunRecordStore } from "../runs/domain";
import { resolveDueAt, slaApplies } from "./sla";
import { type GateSlaNeeds, severityFor, teamSla } from "./sla-use-cases";

export type AckNeeds = GateSlaNeeds & {
  /** the owner of the gate table records acknowledgements */
  runRecord: Pick<RunRecordStore, "ackGate">;
  auditLog: AuditLogStore;
  newId: (prefix: string) => string;
};

export type GateAckAnswer = {
  gate_id: string;
  run_id: string;
  status: string;
  acked_by: string;
  acked_at: number;
  /** when the gate must be decided (its severity's resolve SLA); null for gates no SLA covers */
  resolve_due_at: number | null;
  /** true when this call made the acknowledgement (false: someone acknowledged it before) */
  first: boolean;
};

/** Who acknowledges: a person of the team, optionally bound to one run (its tokens reach no other run's gates). */
export type Acknowledger = { teamId: string; subject: string; runId?: string; channel: string };

export async function acknowledgeGate(
  deps: AckNeeds,
  who: Acknowledger,
  gateId: string,
  now: number,
): Promise<Result<GateAckAnswer, AppError>> {
  const gate = await deps.runRecord.ackGate(who.teamId, gateId, who.subject, now);
  if (!gate || (who.runId !== undefined && gate.run_id !== who.runId))
    return err({ code: "not_found", message: `gate ${gateId} not found for this team` });
  if (gate.acked_by === null || gate.acked_at === null)
    return err({
      code: "conflict",
      message: `gate ${gateId} was already decided (${gate.status}): there is nothing to acknowledge`,
    });
  const first = gate.acked_by === who.subject && gate.acked_at === now;
  if (first)
    await deps.auditLog.append([
      {
        id: deps.newId("aud"),
        teamId: who.teamId,
        actor: who.subject,
        action: "gate.acknowledged",
        subjectType: "gate",
        subjectId: gateId,
        metadata: {
          run_id: gate.run_id,
          policy_key: gate.policy_key,
          waited_ms: now - gate.opened_at,
          channel: who.channel,
        },
        createdAt: now,
      },
    ]);
  let resolve_due_at: number | null = null;
  if (slaApplies(gate.kind)) {
    const [{ settings }, severity] = await Promise.all([
      teamSla(deps.gateSla, who.teamId),
      severityFor(deps.gateRules, who.teamId, now),
    ]);
    resolve_due_at = resolveDueAt(gate.opened_at, severity(gate), settings);
  }
  const { run_id, status, acked_by, acked_at } = gate;
  return ok({ gate_id: gateId, run_id, status, acked_by, acked_at, resolve_due_at, first });
}
