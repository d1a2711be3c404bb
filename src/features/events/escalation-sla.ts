// The resolve SLA due times of acknowledged gates, for the escalation ladder (quiet on an acknowledged gate until then).

import { type GateSlaNeeds, resolveDueAt, severityFor, slaApplies, teamSla } from "../gates";
import type { GateAck } from "../runs/domain";

/** Reads the team's SLAs and rules only when some gate of the batch was acknowledged. */
export async function acknowledgedResolveDue(
  deps: GateSlaNeeds & { clock: { now(): number } },
  teamId: string,
  acks: ReadonlyMap<string, GateAck>,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (acks.size === 0) return out;
  const [{ settings }, severity] = await Promise.all([
    teamSla(deps.gateSla, teamId),
    severityFor(deps.gateRules, teamId, deps.clock.now()),
  ]);
  for (const [gateId, ack] of acks)
    if (slaApplies(ack.kind)) out.set(gateId, resolveDueAt(ack.opened_at, severity(ack), settings));
  return out;
}
