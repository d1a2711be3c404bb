// What a rollback does to pending gates: a mode-ceiling change still waiting behind its policy_deploy gate when the
// rollback matrix lowers the ceiling is denied by system:rollback (channel rollback) — approved later, it would undo
// the rollback with evidence from before it.
import type { RunIndex } from "../../ports/run-index";
import { DEPLOY_POLICY_KEY, isDeployOpOf, ROLLBACK_APPROVER } from "../gates/domain";
import type { RunsService } from "../runs";

/** At most this many pending gates of a team are looked at per rollback (a team has few pending ceiling changes). */
export const ROLLBACK_GATE_SCAN_LIMIT = 200;

export type RollbackGateNeeds = { runIndex: Pick<RunIndex, "listGates">; runs: RunsService };

/** Denies the team's pending ceiling changes through their control run's decide_gate; answers the gate ids denied. */
export async function denyPendingCeilingChanges(
  deps: RollbackGateNeeds,
  teamId: string,
  why: string,
): Promise<string[]> {
  const open = await deps.runIndex.listGates(teamId, { status: "pending", limit: ROLLBACK_GATE_SCAN_LIMIT });
  const denied: string[] = [];
  for (const g of open) {
    if (g.policy_key !== DEPLOY_POLICY_KEY || !isDeployOpOf("ceiling", g.op_id)) continue;
    const reply = await deps.runs.get(g.run_id).decide_gate(g.run_id, {
      actor: { team_id: teamId, subject: ROLLBACK_APPROVER },
      op_id: g.op_id,
      policy_key: g.policy_key,
      decision: "deny",
      note: `superseded by a rollback: ${why}`,
    });
    if (reply.ok) denied.push(g.gate_id);
    else
      console.warn(
        JSON.stringify({ level: "warn", msg: "rollback: ceiling gate not denied", ...g, error: reply.error }),
      );
  }
  return denied;
}
