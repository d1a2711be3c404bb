// The run use-cases an agent calls (start, complete, lease-next), shared by the HTTP routes and the MCP tools.
import type { z } from "zod";
import type { WorkItemV1 } from "../../../contracts/work-item.v1";
import type { Principal } from "../../auth/tokens";
import { AppFailure, orFail } from "../../errors";
import type { BoardGateway, BoardWorker } from "../../ports/board";
import type { ArtifactStore } from "../artifacts/domain";
import { guardStored } from "./guard-stored";
import { batchFailure } from "./items";
import { DEFAULT_BUDGET } from "./model";
import type { RunOpReply } from "./operations";
import { actorOf, callRun, type RunsService } from "./run-call";
import { type CompleteBody, type CreateRunBody, MAX_OUTPUT_BYTES } from "./schemas";
import type { RunIndex } from "./store/run-index-port";

/** how many queued orders one lease-next call tries before answering "nothing now" */
const LEASE_NEXT_CANDIDATES = 20;
/** Retry-After of a 204 when nothing says when work will be available */
export const LEASE_NEXT_IDLE_S = 2;

/** The stored free text of a batch of items, by path, for the memory guard (after the graph rules passed). */
export const itemTexts = (items: readonly WorkItemV1[], newRun: boolean) => {
  const failed = batchFailure(items, newRun);
  if (failed) throw new AppFailure(failed.error);
  return Object.fromEntries(
    items.flatMap((it, i) => [
      [`items[${i}].goal`, it.goal],
      [`items[${i}].input_json`, it.input_json],
    ]),
  );
};

/**
 * POST /v1/runs: a new run for the caller's team (a run-bound token cannot start one); the goal and any declared
 * items are guarded, and a graph is admitted by the team's board first (429 backpressure over max_ready).
 */
export async function startRun(
  deps: { runs: RunsService; newId: (prefix: string) => string; board: BoardGateway },
  principal: Principal,
  body: z.infer<typeof CreateRunBody>,
): Promise<RunOpReply<"create">> {
  if (principal.runId !== undefined)
    throw new AppFailure({ code: "forbidden", message: "a run-bound token cannot start runs" });
  await guardStored({ goal: body.goal, ...itemTexts(body.items ?? [], true) });
  if (body.items?.length) orFail(await deps.board.forTeam(principal.teamId).admit());
  const run_id = deps.newId("run");
  const reply = await callRun(deps.runs, run_id, "create", {
    actor: actorOf(principal),
    run_id,
    goal: body.goal,
    template: body.template ?? null,
    skills: body.skills ?? [],
    budget: {
      input_tokens: body.budget?.input_tokens ?? DEFAULT_BUDGET.input_tokens,
      output_tokens: body.budget?.output_tokens ?? DEFAULT_BUDGET.output_tokens,
      total_tokens: body.budget?.total_tokens ?? null,
    },
    ...(body.items ? { items: body.items } : {}),
  });
  return reply.value;
}

/** POST …/complete: the attempt's outcome (output bounded and guarded) → the next step. Idempotent by op_id. */
/** The artifact rows a completion's `artifacts` are checked against (src/features/artifacts owns them). */
export type CitedArtifacts = Pick<ArtifactStore, "ownedBy">;

/** 422 unless every cited artifact id is one of this run's artifacts (another run's or team's reads as unknown). */
async function checkCited(store: CitedArtifacts, principal: Principal, runId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const owned = new Set(await store.ownedBy(principal.teamId, runId, ids));
  const unknown = ids.filter((id) => !owned.has(id));
  if (unknown.length > 0) {
    throw new AppFailure({
      code: "rejected",
      message: `artifacts not of run ${runId}: ${unknown.slice(0, 5).join(", ")}`,
      ruleIds: ["artifact.not_of_run"],
    });
  }
}

export async function completeAttempt(
  deps: { runs: RunsService; artifactStore: CitedArtifacts },
  principal: Principal,
  target: { run_id: string; order_id: string },
  body: z.infer<typeof CompleteBody>,
): Promise<RunOpReply<"complete">> {
  if (body.output !== undefined && JSON.stringify(body.output).length > MAX_OUTPUT_BYTES) {
    throw new AppFailure({ code: "payload_too_large", limitBytes: MAX_OUTPUT_BYTES });
  }
  await guardStored({ output: body.output });
  const artifacts = [...new Set(body.artifacts ?? [])];
  await checkCited(deps.artifactStore, principal, target.run_id, artifacts);
  const reply = await callRun(deps.runs, target.run_id, "complete", {
    actor: actorOf(principal),
    order_id: target.order_id,
    lease_id: body.lease_id,
    epoch: body.epoch,
    op_id: body.op_id,
    outcome: body.outcome,
    failure_class: body.failure_class ?? null,
    tokens_in: body.tokens_in ?? 0,
    tokens_out: body.tokens_out ?? 0,
    output: body.output ?? null,
    ...(artifacts.length ? { artifacts } : {}),
  });
  return reply.value;
}

export type LeaseNextNeeds = {
  runs: RunsService;
  runIndex: Pick<RunIndex, "availableOrders">;
  board: BoardGateway;
};
export type LeaseNextOutcome =
  | { leased: true; lease: { run_id: string; order_id: string } & RunOpReply<"lease"> }
  | { leased: false; retryAfterS: number };
type LeaseNextLease = Extract<LeaseNextOutcome, { leased: true }>["lease"];

/**
 * POST /v1/orders/lease-next: the team's board first (declared graph items by priority, fair share and persona caps),
 * then the oldest available plain order matching the worker (the run refuses a graph item picked there), or when to
 * ask again.
 */
export async function leaseNext(
  deps: LeaseNextNeeds,
  principal: Principal,
  body: { worker_id: string; skills?: string[] | undefined; persona_id?: string | undefined },
): Promise<LeaseNextOutcome> {
  if (body.persona_id !== undefined && principal.personaId !== undefined && body.persona_id !== principal.personaId)
    throw new AppFailure({ code: "forbidden", message: "this token acts as another persona" });
  const persona = principal.personaId ?? body.persona_id;
  const worker: BoardWorker = {
    team_id: principal.teamId,
    subject: principal.subject,
    worker_id: body.worker_id,
    ...(persona === undefined ? {} : { persona_id: persona }),
    ...(body.skills ? { skills: body.skills } : {}),
    ...(principal.runId ? { run_id: principal.runId } : {}),
    ...(principal.taskId ? { task_id: principal.taskId } : {}),
  };
  const fromBoard = orFail(await deps.board.forTeam(principal.teamId).leaseNext(worker));
  if (fromBoard.kind === "leased") return { leased: true, lease: fromBoard.lease as LeaseNextLease };
  if (fromBoard.throttled) return { leased: false, retryAfterS: fromBoard.retry_after_s ?? LEASE_NEXT_IDLE_S };
  const candidates = await deps.runIndex.availableOrders(principal.teamId, {
    ...(body.skills ? { skills: body.skills } : {}),
    ...(principal.runId ? { runId: principal.runId } : {}),
    ...(principal.taskId ? { taskId: principal.taskId } : {}),
    limit: LEASE_NEXT_CANDIDATES,
  });
  let wait: number | null = fromBoard.retry_after_s;
  for (const cand of candidates) {
    try {
      const reply = await callRun(deps.runs, cand.run_id, "lease", {
        actor: { ...actorOf(principal), ...(persona === undefined ? {} : { persona_id: persona }) },
        order_id: cand.order_id,
        worker_id: body.worker_id,
        from_index: true,
      });
      return { leased: true, lease: { run_id: cand.run_id, order_id: cand.order_id, ...reply.value } };
    } catch (e) {
      // taken by another worker, backing off, or gone since the index was written: try the next one
      if (!(e instanceof AppFailure) || !["conflict", "not_found", "forbidden"].includes(e.error.code)) throw e;
      const after = e.error.code === "conflict" ? e.error.retryAfterSeconds : undefined;
      if (after !== undefined) wait = wait === null ? after : Math.min(wait, after);
    }
  }
  return { leased: false, retryAfterS: wait ?? LEASE_NEXT_IDLE_S };
}
