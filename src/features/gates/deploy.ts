// Use-case: put a stored pending profile or gate-rule version behind a policy_deploy hard gate on the team's control run.
import type { Principal } from "../../auth/tokens";
import type { Deps } from "../../deps";
import { actorOf, callRun } from "../runs/run-call";

export async function proposeDeploy(
  deps: Pick<Deps, "runs">,
  principal: Principal,
  target: "profile" | "gates" | "ceiling",
  version: number,
) {
  const runId = await deps.runs.controlRunId(principal.teamId);
  // the control run belongs to the team, not to whichever run a token may be bound to
  const { run_id: _bound, task_id: _task, ...actor } = actorOf(principal);
  const reply = await callRun(deps, runId, { op: "propose_deploy", actor, target, version });
  const v = reply.value as { run_id: string; op_id: string; gate_id: string };
  return { version, status: "pending" as const, run_id: v.run_id, op_id: v.op_id, gate_id: v.gate_id };
}
