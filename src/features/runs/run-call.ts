// Use-case helpers shared by the run and gate routes: the caller as a RunActor, and one call into a run's object.
import type { Principal } from "../../auth/tokens";
import type { Deps } from "../../deps";
import { AppFailure } from "../../errors";
import { ErrorEnvelope } from "../../http/openapi";
import type { RunActor, RunReply, RunRequest } from "../../ports/run-gateway";

export function actorOf(p: Principal): RunActor {
  return {
    team_id: p.teamId,
    subject: p.subject,
    ...(p.runId === undefined ? {} : { run_id: p.runId }),
    ...(p.taskId === undefined ? {} : { task_id: p.taskId }),
  };
}

/** Dispatches to the run's object; an expected failure becomes the error envelope. */
export async function callRun(
  deps: Pick<Deps, "runs">,
  runId: string,
  request: RunRequest,
): Promise<Extract<RunReply, { ok: true }>> {
  const reply = await deps.runs.dispatch(runId, request);
  if (!reply.ok) throw new AppFailure(reply.error);
  return reply;
}

const err = (description: string) => ({ description, content: { "application/json": { schema: ErrorEnvelope } } });

/** The errors a run route may answer with, beyond the common ones. */
export const runErrors = {
  404: err("not_found: no such run, order or gate for this team"),
  409: err("conflict: held lease, stale epoch, op_id reused with another body, gate already decided, run stopped"),
  422: err("rejected: the request is well-formed but not allowed here"),
} as const;
