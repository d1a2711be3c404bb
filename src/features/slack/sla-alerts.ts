// The gate SLA breach sweep (every 5 minutes, with the rollback cron): each open gate past its acknowledge or resolve
// SLA raises one ops-channel alert, once per gate and breach — a second sweep past due alerts nothing more.

import { type GateSlaNeeds, measureGates, openBreaches, severityFor, teamSla } from "../gates";
import type { SlaGateRow } from "../gates/domain";
import { breachKey } from "../gates/domain";
import { raiseAlerts, type SlackAlertNeeds } from "./alerts-enqueue";
import type { AlertOccurrence } from "./store/slack-feed-store-port";

/** Open gates read per sweep (oldest first); more wait for the next sweep. */
export const MAX_SWEPT_GATES = 500;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The breaches of one team's open gates at `now`, as alert occurrences (at: when the SLA fell due). */
async function teamBreaches(deps: GateSlaNeeds, teamId: string, gates: SlaGateRow[], now: number) {
  const [{ settings }, severity] = await Promise.all([
    teamSla(deps.gateSla, teamId),
    severityFor(deps.gateRules, teamId, now),
  ]);
  return openBreaches(measureGates(gates, severity, settings, now)).map(
    ({ gate, sla, breach }): AlertOccurrence & { gate_id: string; breach: typeof breach } => {
      const due = breach === "ack" ? sla.ack_due_at : sla.resolve_due_at;
      const what = breach === "ack" ? "nobody acknowledged it" : "still undecided";
      return {
        id: `gate_sla:${breachKey(gate.gate_id, breach)}`,
        team_id: teamId,
        kind: breach === "ack" ? "gate_ack_sla_breach" : "gate_resolve_sla_breach",
        at: due,
        detail: `${sla.severity} gate ${gate.policy_key} (${gate.gate_id}) on run ${gate.run_id}: ${what}, due ${iso(due)}`,
        gate_id: gate.gate_id,
        breach,
      };
    },
  );
}

/** Alerts the breaches not alerted before, then records them; answers how many it alerted. */
export async function alertGateSlaBreaches(deps: GateSlaNeeds & SlackAlertNeeds, now: number): Promise<number> {
  const open = await deps.gateSla.openGates(MAX_SWEPT_GATES);
  const byTeam = new Map<string, SlaGateRow[]>();
  for (const g of open) byTeam.set(g.team_id, [...(byTeam.get(g.team_id) ?? []), g]);
  const breaches = (
    await Promise.all([...byTeam].map(([teamId, gates]) => teamBreaches(deps, teamId, gates, now)))
  ).flat();
  const before = await deps.gateSla.alerted(breaches);
  const fresh = breaches.filter((b) => !before.has(breachKey(b.gate_id, b.breach)));
  if (fresh.length === 0) return 0;
  // raised first, recorded after: a failure in between alerts again next sweep (the alert ids keep the count right)
  await raiseAlerts(
    fresh.map(({ gate_id: _g, breach: _b, ...o }) => o),
    deps,
  );
  await deps.gateSla.claimAlerts(fresh, now);
  return fresh.length;
}
