// Use-case helpers shared by the run and gate routes: the caller as a RunActor, and one typed call into a run's object.
import type { Principal } from "../../auth/tokens";
import { AppFailure } from "../../errors";
import { ErrorEnvelope } from "../../http/openapi";
import type { RunGateway } from "../../ports/run-gateway";
import type { Activated, RunActor, RunOperations, RunOpName, RunOpReply, RunOpRequest } from "./operations";

/** The runs feature's service: reach one run's object and call one of its operations. */
export type RunsService = RunGateway<RunOperations>;

export function actorOf(p: Principal): RunActor {
  return {
    team_id: p.teamId,
    subject: p.subject,
    ...(p.runId === undefined ? {} : { run_id: p.runId }),
    ...(p.taskId === undefined ? {} : { task_id: p.taskId }),
    ...(p.personaId === undefined ? {} : { persona_id: p.personaId }),
    ...(p.keyIssuer === undefined ? {} : { issued_by: p.keyIssuer }),
  };
}

/** Calls one operation on the run's object; an expected failure becomes the error envelope (the route's only idiom). */
export async function callRun<K extends RunOpName>(
  runs: RunsService,
  runId: string,
  op: K,
  request: RunOpRequest<K>,
): Promise<{ value: RunOpReply<K>; activated?: Activated[] }> {
  const reply = await runs.get(runId)[op](runId, request);
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
