// The MCP tool table: each tool names the route it mirrors, takes that route's zod schemas and scopes, and calls the
// same use-case; the answer is the route's JSON plus a one-line summary.
import { z } from "zod";
import { SessionEventV1 } from "../../../contracts/session-event.v1";
import type { Principal, Scope } from "../../auth/tokens";
import { orFail } from "../../errors";
import type { HttpNeeds } from "../../http/types";
import { GateListQuery, GateParams, GateRunParams, listGates, OpenGateBody, openGate } from "../gates";
import { ActivateBody, QueryBody, WriteBody } from "../memory";
import { DecideBody, decideDepsOf, decidePolicy } from "../policy";
import {
  actorOf,
  CompleteBody,
  CreateRunBody,
  callRun,
  completeAttempt,
  HeartbeatBody,
  LeaseNextBody,
  leaseNext,
  OrderParams,
  type RunOpName,
  type RunOpReply,
  type RunOpRequest,
  RunParams,
  startRun,
} from "../runs";
import type { ParsedArgs, RouteParts } from "./input-schema";
import type { McpNeeds } from "./needs";

/** What a tool call runs with: the deps, the caller, a way to finish work after the answer, and a sleep. */
export type ToolContext = {
  deps: McpNeeds & HttpNeeds;
  principal: Principal;
  defer: (work: Promise<unknown>) => void;
  sleep: (ms: number) => Promise<void>;
};

/** gate_wait: the longest wait one call may hold the connection, and how often it looks at the gate. */
export const GATE_WAIT_MAX_S = 25;
export const GATE_WAIT_POLL_MS = 500;
export const GateWaitArgs = z.strictObject({
  wait_s: z
    .number()
    .min(0)
    .max(GATE_WAIT_MAX_S)
    .default(20)
    .meta({
      description: `how long to wait for a decision, ≤ ${GATE_WAIT_MAX_S} s; then the gate is answered as it is`,
    }),
});

type Json = Record<string, unknown>;
type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type ArgsOf<P extends RouteParts> = {
  params: Out<P["params"]>;
  query: Out<P["query"]>;
  body: Out<P["body"]>;
  extra: Out<P["extra"]>;
};

export type Tool = {
  name: string;
  /** the route this tool mirrors, "METHOD /path/{param}" as in /openapi.json */
  route: string;
  /** any one of these lets the caller use the tool (the route's requireScope) */
  scopes: readonly Scope[];
  description: string;
  parts: RouteParts;
  call(ctx: ToolContext, args: ParsedArgs): Promise<Json>;
  summary(result: Json): string;
};

function tool<P extends RouteParts, R extends object>(def: {
  name: string;
  route: string;
  scopes: readonly Scope[];
  description: string;
  parts: P;
  call(ctx: ToolContext, args: ArgsOf<P>): Promise<R>;
  summary(result: R): string;
}): Tool {
  return def as unknown as Tool;
}

const now = (ctx: ToolContext) => ctx.deps.clock.now();

/** one operation on a run's object as the caller; the reply's value, or the run's refusal thrown as the route does */
async function onRun<K extends RunOpName>(
  ctx: ToolContext,
  runId: string,
  op: K,
  fields: Omit<RunOpRequest<K>, "actor">,
): Promise<RunOpReply<K>> {
  const request = { actor: actorOf(ctx.principal), ...fields } as RunOpRequest<K>;
  return (await callRun(ctx.deps.runs, runId, op, request)).value;
}

export const TOOLS: readonly Tool[] = [
  tool({
    name: "policy_decide",
    route: "POST /v1/policy/decide",
    scopes: ["policy:decide"],
    description: "A step failed: retry or escalate? The deterministic MemRL decision, logged under decision_id.",
    parts: { body: DecideBody },
    call: async (ctx, a) => orFail(await decidePolicy(decideDepsOf(ctx.deps), ctx.principal, a.body, now(ctx))),
    summary: (r) => `${r.selected_action} (rule ${r.rule_id}, mode ${r.memrl_mode}, decision ${r.decision_id})`,
  }),
  tool({
    name: "gate_open",
    route: "POST /v1/runs/{run_id}/gates",
    scopes: ["runs:write"],
    description:
      "May this risky step go ahead? Opens the approval gate for (op_id, policy_key): allowed, pending (soft timer or a human) or denied. Idempotent.",
    parts: { params: GateRunParams, body: OpenGateBody },
    call: (ctx, a) => openGate(ctx.deps.runs, ctx.principal, a.params.run_id, a.body),
    summary: (r) => `gate ${r.gate_id}: ${r.kind} gate, ${r.status}`,
  }),
  tool({
    name: "gate_status",
    route: "GET /v1/runs/{run_id}/gates/{gate_id}",
    scopes: ["runs:read", "runs:write", "approvals:decide"],
    description: "A gate and its decision, now.",
    parts: { params: GateParams },
    call: (ctx, a) => onRun(ctx, a.params.run_id, "get_gate", { gate_id: a.params.gate_id }),
    summary: (r) => `gate ${r.gate_id}: ${r.status}`,
  }),
  tool({
    name: "gate_wait",
    route: "GET /v1/runs/{run_id}/gates/{gate_id}",
    scopes: ["runs:read", "runs:write", "approvals:decide"],
    description: `Waits up to wait_s (≤ ${GATE_WAIT_MAX_S} s) for a gate's decision and answers the gate: still pending after the wait, call again.`,
    parts: { params: GateParams, extra: GateWaitArgs },
    call: async (ctx, a) => {
      const rounds = Math.ceil((a.extra.wait_s * 1000) / GATE_WAIT_POLL_MS);
      for (let i = 0; ; i++) {
        const gate = await onRun(ctx, a.params.run_id, "get_gate", { gate_id: a.params.gate_id });
        if (gate.status !== "pending" || i >= rounds) return gate;
        await ctx.sleep(GATE_WAIT_POLL_MS);
      }
    },
    summary: (r) =>
      r.status === "pending" ? `gate ${r.gate_id}: still pending, wait again` : `gate ${r.gate_id}: ${r.status}`,
  }),
  tool({
    name: "gates_open_list",
    route: "GET /v1/gates",
    scopes: ["runs:read", "approvals:decide"],
    description: "The team's gates by status (default open), oldest first: run, op, policy key, kind, age, deadline.",
    parts: { query: GateListQuery },
    call: (ctx, a) => listGates(ctx.deps.runIndex, ctx.principal, a.query, now(ctx)),
    summary: (r) => `${r.gates.length} gate(s)`,
  }),
  tool({
    name: "lease_next",
    route: "POST /v1/orders/lease-next",
    scopes: ["runs:write"],
    description:
      "Pull work: a lease on the team's oldest available order matching the worker's skills, or {available:false, retry_after_s}.",
    parts: { body: LeaseNextBody },
    call: async (ctx, a) => {
      const next = await leaseNext(ctx.deps, ctx.principal, a.body);
      return next.leased ? next.lease : { available: false, retry_after_s: next.retryAfterS };
    },
    summary: (r) =>
      "lease_id" in r
        ? `leased order ${r.order_id} of run ${r.run_id} (epoch ${r.epoch}, heartbeat every ${r.heartbeat_ms} ms)`
        : `nothing to lease now; ask again in ${r.retry_after_s} s`,
  }),
  tool({
    name: "heartbeat",
    route: "POST /v1/runs/{run_id}/orders/{order_id}/heartbeat",
    scopes: ["runs:write"],
    description: "Extends a lease (every 10 s); a stale epoch or an expired lease is refused and changes nothing.",
    parts: { params: OrderParams, body: HeartbeatBody },
    call: (ctx, a) => onRun(ctx, a.params.run_id, "heartbeat", { order_id: a.params.order_id, ...a.body }),
    summary: (r) => `lease ${r.lease_id} extended to ${new Date(r.expires_at).toISOString()}`,
  }),
  tool({
    name: "complete",
    route: "POST /v1/runs/{run_id}/orders/{order_id}/complete",
    scopes: ["runs:write"],
    description: "Completes an attempt (PASS, DECLINE or ERROR); the answer is the next step. Idempotent by op_id.",
    parts: { params: OrderParams, body: CompleteBody },
    call: (ctx, a) => completeAttempt(ctx.deps, ctx.principal, a.params, a.body),
    summary: (r) => `next: ${r.next}${r.retry_after_ms ? ` after ${r.retry_after_ms} ms` : ""}`,
  }),
  tool({
    name: "memory_activate",
    route: "POST /v1/memory/activate",
    scopes: ["memory:read"],
    description: "Session start: stabilized routes, recent episodes and hints for this kind of session.",
    parts: { body: ActivateBody },
    call: async (ctx, a) => orFail(await ctx.deps.sessions.activate(ctx.principal, a.body, now(ctx))),
    summary: (r) =>
      `${r.hints.length} hint(s), ${r.stabilized_routes.length} stabilized route(s), ${r.recent_episodes.length} recent episode(s)`,
  }),
  tool({
    name: "memory_query",
    route: "POST /v1/memory/query",
    scopes: ["memory:read"],
    description: "Ranked memories (similarity × importance × recency) from the namespaces given.",
    parts: { body: QueryBody },
    call: async (ctx, a) => ({ results: orFail(await ctx.deps.memory.query(ctx.principal, a.body, now(ctx))) }),
    summary: (r) => `${r.results.length} memor${r.results.length === 1 ? "y" : "ies"}`,
  }),
  tool({
    name: "memory_write",
    route: "POST /v1/memory",
    scopes: ["memory:write"],
    description:
      "Stores a memory (a summary, never secrets, PII, raw URLs or raw logs: those are refused naming the rule); near-duplicates reinforce.",
    parts: { body: WriteBody },
    call: async (ctx, a) => {
      const { status, ...outcome } = orFail(await ctx.deps.memory.write(ctx.principal, a.body, now(ctx), ctx.defer));
      return { ...outcome, status };
    },
    summary: (r) => `memory ${r.id} ${r.status} (tier ${r.tier})`,
  }),
  tool({
    name: "session_record",
    route: "POST /v1/sessions/events",
    scopes: ["events:write", "memory:write"],
    description: "Records a coding-agent session episode (ops-warden session_event.v1) for later activations.",
    parts: { body: SessionEventV1 },
    call: async (ctx, a) => orFail(await ctx.deps.sessions.record(ctx.principal, a.body, now(ctx), ctx.defer)),
    summary: () => "session episode recorded",
  }),
  tool({
    name: "run_start",
    route: "POST /v1/runs",
    scopes: ["runs:write"],
    description: "Starts a run: takes the policy-memory snapshot and answers memory hints.",
    parts: { body: CreateRunBody },
    call: (ctx, a) => startRun(ctx.deps, ctx.principal, a.body),
    summary: (r) => `run ${r.run_id} ${r.status} with ${r.hints.length} hint(s)`,
  }),
  tool({
    name: "run_new_graph",
    route: "POST /v1/runs",
    scopes: ["runs:write"],
    description:
      "Starts a run with a declared work graph (items: WorkItem v1 with depends_on, priority, persona_id): Warden " +
      "releases each item as an order once its dependencies passed; workers then only call lease_next.",
    parts: { body: CreateRunBody },
    call: (ctx, a) => startRun(ctx.deps, ctx.principal, a.body),
    summary: (r) => `run ${r.run_id} ${r.status}; its graph's ready items are leasable with lease_next`,
  }),
  tool({
    name: "board",
    route: "GET /v1/board",
    scopes: ["runs:read", "runs:write"],
    description:
      "The team's work board: ready, leased and waiting items by persona and priority, the oldest ready, backpressure.",
    parts: {},
    call: async (ctx) => orFail(await ctx.deps.board.forTeam(ctx.principal.teamId).view()),
    summary: () => "the team's work board",
  }),
  tool({
    name: "run_status",
    route: "GET /v1/runs/{run_id}",
    scopes: ["runs:read", "runs:write"],
    description: "A run: status, last 10 steps, orders, gates, hints, budget, dead letters.",
    parts: { params: RunParams },
    call: (ctx, a) => onRun(ctx, a.params.run_id, "view", {}),
    summary: (r) => `run ${r.run_id}: ${r.status}, ${r.steps_total} step(s)`,
  }),
  tool({
    name: "run_explain_exit",
    route: "GET /v1/runs/{run_id}/explain-exit",
    scopes: ["runs:read", "runs:write"],
    description: "Why the run ended: terminal step, decisions, gates, hints (ended:false while it runs).",
    parts: { params: RunParams },
    call: (ctx, a) => onRun(ctx, a.params.run_id, "explain", {}),
    summary: (r) =>
      r.ended ? `run ${r.run_id} ended ${r.status}: ${r.reason}` : `run ${r.run_id} is still ${r.status}`,
  }),
];

export const TOOLS_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));
