// Warden's own denials of open gates (the approval-outage fallback, a rollback): each through its run's decide_gate,
// the path POST /v1/gates/:gate_id/decision takes, so the run applies it like any decision.
import { log } from "../../lib/log";
import type { RunsService } from "../runs";
import type { GateIndexRow, RunIndex } from "../runs/domain";

/** At most this many of a team's open gates are looked at per call (the oldest first). */
export const SYSTEM_DENY_SCAN_LIMIT = 200;

export type SystemDenyNeeds = { runIndex: Pick<RunIndex, "listGates">; runs: RunsService };

/**
 * Denies the team's open gates that `which` picks, as `decider` (a system decider: its channel follows from it) with
 * `note`; answers the gate ids denied. A gate decided meanwhile (409) is logged and skipped.
 */
export async function denyOpenGates(
  deps: SystemDenyNeeds,
  teamId: string,
  o: { decider: string; note: string; which: (g: GateIndexRow) => boolean },
): Promise<string[]> {
  const open = await deps.runIndex.listGates(teamId, { status: "pending", limit: SYSTEM_DENY_SCAN_LIMIT });
  const denied: string[] = [];
  for (const g of open.filter(o.which)) {
    const reply = await deps.runs.get(g.run_id).decide_gate(g.run_id, {
      actor: { team_id: teamId, subject: o.decider },
      op_id: g.op_id,
      policy_key: g.policy_key,
      decision: "deny",
      note: o.note,
    });
    if (reply.ok) denied.push(g.gate_id);
    else log.warn("gate not denied", { decider: o.decider, ...g, error: reply.error });
  }
  return denied;
}
