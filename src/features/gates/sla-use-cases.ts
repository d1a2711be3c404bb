// Use-cases of gate SLAs: a team's settings (stored or the defaults), changing them (audited), and a window's figures.
import { log } from "../../lib/log";
import type { AuditEntry } from "../../ports/audit-log";
import type { GateRuleCache } from "./gate-rule-cache";
import {
  DEFAULT_GATE_SLA,
  GateSlaSettings,
  measureGates,
  type Severity,
  type SlaGate,
  severityOf,
  slaFigures,
} from "./sla";
import type { GateSlaStore, SlaGateRow } from "./store/gate-sla-store-port";

export type GateSlaNeeds = { gateSla: GateSlaStore; gateRules: Pick<GateRuleCache, "get"> };

/** Gates read per metrics request; a window with more reports on the oldest this many. */
export const MAX_SLA_GATES = 5000;

export type TeamSla = {
  team_id: string;
  source: "default" | "team";
  settings: GateSlaSettings;
  updated_by: string | null;
  updated_at: number | null;
};

/** The team's SLA settings; stored ones that no longer parse count as the defaults (and say so in the log). */
export async function teamSla(store: Pick<GateSlaStore, "get">, teamId: string): Promise<TeamSla> {
  const stored = await store.get(teamId);
  const parsed = stored ? GateSlaSettings.safeParse(stored.settings) : null;
  if (stored && parsed?.success) return { team_id: teamId, source: "team", settings: parsed.data, ...pick(stored) };
  if (stored) log.warn("stored gate SLA does not parse; using defaults", { team_id: teamId });
  return { team_id: teamId, source: "default", settings: DEFAULT_GATE_SLA, updated_by: null, updated_at: null };
}
const pick = (s: { updated_by: string; updated_at: number }) => ({
  updated_by: s.updated_by,
  updated_at: s.updated_at,
});

/** Replaces the team's settings, with an audit row `gate_sla.updated` holding the old and new settings. */
export async function putTeamSla(
  deps: Pick<GateSlaNeeds, "gateSla"> & { newId: (prefix: string) => string },
  teamId: string,
  actor: string,
  settings: GateSlaSettings,
  now: number,
): Promise<TeamSla> {
  const before = await teamSla(deps.gateSla, teamId);
  const audit: AuditEntry = {
    id: deps.newId("aud"),
    teamId,
    actor,
    action: "gate_sla.updated",
    subjectType: "team",
    subjectId: teamId,
    metadata: { before: before.settings, after: settings },
    createdAt: now,
  };
  await deps.gateSla.put(teamId, settings, audit);
  return { team_id: teamId, source: "team", settings, updated_by: actor, updated_at: now };
}

/** The severity function of a team: its gate rules first, then the defaults. */
export async function severityFor(gateRules: GateSlaNeeds["gateRules"], teamId: string, now: number) {
  const { rules } = await gateRules.get(teamId, now);
  return (g: Pick<SlaGate, "policy_key" | "kind">): Severity => severityOf(rules, g);
}

/** The SLA figures of the gates the team opened since `since`. */
export async function teamSlaFigures(deps: GateSlaNeeds, teamId: string, since: number, now: number) {
  const [rows, { settings }, severity] = await Promise.all([
    deps.gateSla.gatesOpenedSince(teamId, since, MAX_SLA_GATES),
    teamSla(deps.gateSla, teamId),
    severityFor(deps.gateRules, teamId, now),
  ]);
  return slaFigures(measureGates<SlaGateRow>(rows, severity, settings, now));
}
