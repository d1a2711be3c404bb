// Use-case: put a stored pending version of a deploy target behind a policy_deploy hard gate on the team's control run.
import type { Principal } from "../../auth/tokens";
import { actorOf, callRun, type RunsService } from "../runs";
import type { DeployTarget } from "./deploy-targets";

export async function proposeDeploy(
  deps: { runs: RunsService },
  principal: Principal,
  target: DeployTarget,
  version: number,
  context?: Record<string, unknown>,
) {
  const runId = await deps.runs.controlRunId(principal.teamId);
  // the control run belongs to the team, not to whichever run a token may be bound to
  const { run_id: _bound, task_id: _task, ...actor } = actorOf(principal);
  const { value } = await callRun(deps.runs, runId, "propose_deploy", {
    actor,
    target,
    version,
    ...(context ? { context } : {}),
  });
  return { version, status: "pending" as const, run_id: value.run_id, op_id: value.op_id, gate_id: value.gate_id };
}
