// gate.escalated events: each one an audit_log row (seed 003 §14), and a Slack ping unless someone acknowledged the gate
// and its resolve SLA is not due yet.
import type { InternalEvent } from "../../../contracts/internal-events";
import type { AuditEntry } from "../../ports/audit-log";
import { escalationPings } from "../gates/domain";
import type { GateAck } from "../runs/domain";

const str = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * The audit rows of a batch's escalations (pure; one id per event, so a redelivery writes one row) and the events
 * still to ping: an acknowledged gate has someone on it, so its ladder goes quiet until its resolve SLA falls due
 * (`resolveDue`: the acknowledged gates' resolve due times; a gate without one stays quiet).
 */
export function planEscalations(
  events: readonly InternalEvent[],
  acks: ReadonlyMap<string, GateAck>,
  resolveDue: ReadonlyMap<string, number> = new Map(),
): { audit: AuditEntry[]; ping: InternalEvent[] } {
  const gateOf = (e: InternalEvent) => str((e as Record<string, unknown>).gate_id);
  const pings = (e: InternalEvent) =>
    escalationPings(acks.has(gateOf(e)), resolveDue.get(gateOf(e)) ?? null, e.occurred_at);
  const audit = events.map((e) => {
    const gateId = gateOf(e);
    const ack = acks.get(gateId);
    const due = resolveDue.get(gateId);
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
        pinged: pings(e),
        ...(ack ? { acked_by: ack.acked_by, acked_at: ack.acked_at } : {}),
        ...(due !== undefined ? { resolve_due_at: due } : {}),
      },
      createdAt: e.occurred_at,
    };
  });
  return { audit, ping: events.filter(pings) };
}
