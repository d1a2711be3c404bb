// gate.escalated events: each one an audit_log row (seed 003 §14), and a Slack ping only for gates nobody acknowledged.
import type { InternalEvent } from "../../../contracts/internal-events";
import type { AuditEntry } from "../../ports/audit-log";
import type { GateAck } from "../../ports/run-index";

const str = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * The audit rows of a batch's escalations (pure; one id per event, so a redelivery writes one row) and the events
 * still to ping: an acknowledged gate has someone on it, so its ladder goes quiet.
 */
export function planEscalations(
  events: readonly InternalEvent[],
  acks: ReadonlyMap<string, GateAck>,
): { audit: AuditEntry[]; ping: InternalEvent[] } {
  const audit = events.map((e) => {
    const gateId = str((e as Record<string, unknown>).gate_id);
    const ack = acks.get(gateId);
    return {
      id: `aud_esc_${e.event_id}`,
      teamId: e.team_id,
      actor: "escalation-ladder",
      action: "gate.escalated",
      subjectType: "gate",
      subjectId: gateId,
      metadata: {
        run_id: e.run_id ?? null,
        level: (e as Record<string, unknown>).level ?? null,
        policy_key: (e as Record<string, unknown>).policy_key ?? null,
        pinged: ack === undefined,
        ...(ack ? { acked_by: ack.acked_by, acked_at: ack.acked_at } : {}),
      },
      createdAt: e.occurred_at,
    };
  });
  const ping = events.filter((e) => !acks.has(str((e as Record<string, unknown>).gate_id)));
  return { audit, ping };
}
