// The gate use-cases (open a gate, list the team's gates, decide one), shared by the HTTP routes and the MCP tools.
import type { z } from "zod";
import type { Principal } from "../../auth/tokens";
import { AppFailure } from "../../errors";
import { actorOf, callRun, guardStored, type RunOpReply, type RunOpRequest, type RunsService } from "../runs";
import type { RunIndex } from "../runs/domain";
import { DEPLOY_TARGET_SPECS, type DeployNeeds } from "./deploy-targets";
import type { GateListItem, GateListQuery } from "./inbox-schemas";
import { MAX_CONTEXT_BYTES, type OpenGateBody } from "./schemas";

/** POST /v1/runs/:run_id/gates: the gate for this op and policy key (context bounded and guarded); idempotent. */
export async function openGate(
  runs: RunsService,
  principal: Principal,
  runId: string,
  body: z.infer<typeof OpenGateBody>,
): Promise<RunOpReply<"open_gate">> {
  const context = body.context ?? {};
  if (JSON.stringify(context).length > MAX_CONTEXT_BYTES)
    throw new AppFailure({ code: "payload_too_large", limitBytes: MAX_CONTEXT_BYTES });
  await guardStored({ context });
  const reply = await callRun(runs, runId, "open_gate", {
    actor: actorOf(principal),
    op_id: body.op_id,
    policy_key: body.policy_key,
    context,
  });
  return reply.value;
}

/** GET /v1/gates: the team's gates by status, oldest first (a run-bound token sees its run's only). */
export async function listGates(
  runIndex: Pick<RunIndex, "listGates">,
  principal: Principal,
  q: z.output<typeof GateListQuery>,
  now: number,
): Promise<{ gates: z.infer<typeof GateListItem>[] }> {
  const rows = await runIndex.listGates(principal.teamId, {
    status: q.status === "open" ? "pending" : q.status,
    limit: q.limit,
  });
  const gates = rows
    .filter((g) => principal.runId === undefined || g.run_id === principal.runId)
    .map((g) => ({
      ...g,
      kind: g.kind as z.infer<typeof GateListItem>["kind"],
      outcome: g.outcome as z.infer<typeof GateListItem>["outcome"],
      age_ms: Math.max(0, now - g.opened_at),
    }));
  return { gates };
}

type DecideGateRequest = RunOpRequest<"decide_gate">;

/**
 * A person's decision (POST /v1/approvals or the inbox) handed to the gate's run once its note and patch passed the
 * guard (both routes: a refused note is stored nowhere); a deploy it activated drops this isolate's caches of the old
 * version.
 */
export async function decideGate(
  needs: DeployNeeds & { runs: RunsService },
  principal: Principal,
  body: Pick<DecideGateRequest, "op_id" | "policy_key" | "decision" | "digest" | "patch"> & {
    run_id: string;
    note?: string | null;
  },
  channel: DecideGateRequest["channel"],
) {
  await guardStored({ note: body.note ?? null, ...(body.patch ? { input_json: body.patch } : {}) });
  const reply = await callRun(needs.runs, body.run_id, "decide_gate", {
    actor: actorOf(principal),
    op_id: body.op_id,
    policy_key: body.policy_key,
    decision: body.decision,
    note: body.note ?? null,
    ...(body.digest ? { digest: body.digest } : {}),
    ...(channel ? { channel } : {}),
    ...(body.patch ? { patch: body.patch } : {}),
  });
  // the control run activated a deploy: this isolate's caches must not serve the old version
  for (const a of reply.activated ?? []) DEPLOY_TARGET_SPECS[a.target].invalidate(needs, principal.teamId);
  return reply;
}
