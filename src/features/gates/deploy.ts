// Use-case: put a stored pending version of a deploy target behind a policy_deploy hard gate on the team's control run.
import type { Principal } from "../../auth/tokens";
import { type AppError, AppFailure } from "../../errors";
import type { Result } from "../../lib/result";
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

/**
 * Team-wide settings (profile, gate rules, mode ceiling) are proposed only by a token not bound to a run: a run-bound
 * token, even with policy:admin, speaks for one run (docs/security.md, finding 11). Checked before anything is stored.
 */
export function teamWideProposer(principal: Principal): AppError | null {
  if (principal.runId === undefined) return null;
  return {
    code: "forbidden",
    message: "a run-bound token cannot propose team-wide policy; use an unbound admin token",
  };
}

/** teamWideProposer as the routes use it: a run-bound proposer is refused (403) before anything is stored. */
export function assertTeamWideProposer(principal: Principal): void {
  const bound = teamWideProposer(principal);
  if (bound) throw new AppFailure(bound);
}

/**
 * evaluation_trend_regression_gate (seed 002), built by the policy feature and handed to gates through `Deps` (gates
 * may not import policy: policy's routes import gates). A regression is a `regression` error carrying the comparison.
 */
export type TrendGateCheck = (teamId: string, now: number) => Promise<Result<{ trend: unknown }, AppError>>;
