// The run operations table: every operation a run's Durable Object answers, its request (zod) and its reply type.
// The RunDO's RPC methods, the reducer's commands and the routes' replies are all derived from this one table.
import { z } from "zod";
import { APPROVAL_DECISIONS } from "../../../contracts/approval-action.v1";
import { WorkItemV1 } from "../../../contracts/work-item.v1";
import { WorkOrderV1 } from "../../../contracts/work-order.v1";
import type { AppError } from "../../errors";
import type { Result } from "../../lib/result";
import type { DeployTarget } from "../gates/domain";
import {
  ApprovalResponse,
  DECISION_CHANNELS,
  DEPLOY_TARGETS,
  DeployAccepted,
  GateView,
  OpenGateResponse,
} from "../gates/domain";
import { ArtifactAccess, ArtifactAccessRequest } from "./artifact-access";
import {
  CompleteResponse,
  CreateRunResponse,
  ExplainExit,
  HeartbeatResponse,
  ItemsAdded,
  LeaseResponse,
  OrderCreated,
  RunView,
  StopResponse,
} from "./schemas";

/** Who is calling, from the verified token. */
export const RunActor = z.object({
  team_id: z.string(),
  subject: z.string(),
  run_id: z.string().optional(),
  task_id: z.string().optional(),
  /** the token's persona_id: the lease records it so spend can be read per persona */
  persona_id: z.string().optional(),
  /** the admin who created the API key behind the token: the same person as the subject for the two-person rule */
  issued_by: z.string().optional(),
});
export type RunActor = z.infer<typeof RunActor>;

const withActor = <T extends z.ZodRawShape>(shape: T) => z.object({ actor: RunActor, ...shape });
const Budget = z.object({ input_tokens: z.int(), output_tokens: z.int(), total_tokens: z.int().nullable() });

/** name → { request, reply }: add an operation here, then its handler, its RunDO method and its route. */
export const RUN_OPS = {
  create: {
    request: withActor({
      run_id: z.string(),
      goal: z.string(),
      template: z.string().nullable(),
      skills: z.array(z.string()),
      budget: Budget,
      /** the declared work graph, if any (checked again by the reducer: a bad graph creates nothing) */
      items: z.array(WorkItemV1).optional(),
    }),
    reply: CreateRunResponse,
  },
  add_items: { request: withActor({ items: z.array(WorkItemV1) }), reply: ItemsAdded },
  view: { request: withActor({}), reply: RunView },
  explain: { request: withActor({}), reply: ExplainExit },
  get_gate: { request: withActor({ gate_id: z.string() }), reply: GateView },
  /** may the caller attach an artifact (src/features/artifacts): a run-bound token, or the order's lease */
  artifact_access: { request: withActor(ArtifactAccessRequest), reply: ArtifactAccess },
  add_order: { request: withActor({ order: WorkOrderV1, skill: z.string().nullable() }), reply: OrderCreated },
  lease: {
    request: withActor({
      order_id: z.string(),
      worker_id: z.string(),
      /** granted by the team's board (lease-next): the persona's cap across runs was checked there */
      board: z.boolean().optional(),
      /** picked by lease-next's D1 fallback: only a plain order, never a graph item (those are the board's alone) */
      from_index: z.boolean().optional(),
    }),
    reply: LeaseResponse,
  },
  heartbeat: {
    request: withActor({ order_id: z.string(), lease_id: z.string(), epoch: z.int() }),
    reply: HeartbeatResponse,
  },
  complete: {
    request: withActor({
      order_id: z.string(),
      lease_id: z.string(),
      epoch: z.int(),
      op_id: z.string(),
      outcome: z.enum(["PASS", "DECLINE", "ERROR"]),
      failure_class: z.string().nullable(),
      tokens_in: z.int(),
      tokens_out: z.int(),
      output: z.unknown(),
      /** artifact ids the completion cites, checked to be the run's before the call */
      artifacts: z.array(z.string()).optional(),
    }),
    reply: CompleteResponse,
  },
  open_gate: {
    request: withActor({ op_id: z.string(), policy_key: z.string(), context: z.record(z.string(), z.unknown()) }),
    reply: OpenGateResponse,
  },
  decide_gate: {
    request: withActor({
      op_id: z.string(),
      policy_key: z.string(),
      decision: z.enum(APPROVAL_DECISIONS),
      note: z.string().nullable(),
      /** the gate content digest the approver saw */
      digest: z.string().optional(),
      /** where the decision was made (slack, or the X-Warden-Channel of an API call); default api */
      channel: z.enum(DECISION_CHANNELS).optional(),
      /** edit and retry of a dead_letter_review: a JSON merge patch to the order's input_json */
      patch: z.record(z.string(), z.unknown()).optional(),
    }),
    reply: ApprovalResponse,
  },
  propose_deploy: {
    request: withActor({
      target: z.enum(DEPLOY_TARGETS),
      version: z.int(),
      /** what the approver sees besides target and version (e.g. a gate-rule diff) */
      context: z.record(z.string(), z.unknown()).optional(),
    }),
    reply: DeployAccepted,
  },
  stop: { request: withActor({ reason: z.string().nullable() }), reply: StopResponse },
  /** the learning reconciliation: send the run's latest run.completed again (same event id), when the queue lost it */
  resend_completion: {
    request: withActor({}),
    reply: z.object({ event_id: z.string().nullable(), resent: z.boolean() }),
  },
} as const;

export type RunOpName = keyof typeof RUN_OPS;
/** the operations that only read the run (no command, no reducer) */
export type RunReadOp = "view" | "explain" | "get_gate" | "artifact_access";
/** the operations that only touch the outbox (no command, no reducer, no state change) */
export type RunOutboxOp = "resend_completion";
export type RunWriteOp = Exclude<RunOpName, RunReadOp | RunOutboxOp>;
export type RunOpRequest<K extends RunOpName> = z.infer<(typeof RUN_OPS)[K]["request"]>;
export type RunOpReply<K extends RunOpName> = z.output<(typeof RUN_OPS)[K]["reply"]>;

/** A deploy the reply reports as activated (the caller's isolate drops its cached copy). */
export type Activated = { target: DeployTarget; version: number };
/** What every operation answers: its reply, or an expected failure the route maps to the wire. */
export type RunOpResult<K extends RunOpName> = Result<RunOpReply<K>, AppError> & { activated?: Activated[] };

/** One request as the engine sees it: the operation name plus its request. */
export type RunRequest = { [K in RunOpName]: { op: K } & RunOpRequest<K> }[RunOpName];

/** The RunDO's RPC surface, one method per operation: a missing or mistyped method fails tsc. */
export type RunOperations = {
  [K in RunOpName]: (runId: string, request: RunOpRequest<K>) => Promise<RunOpResult<K>>;
};
