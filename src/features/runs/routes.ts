// /v1/runs: create and read runs, post work orders, lease / heartbeat / complete them, explain the exit, stop.
import { createRoute } from "@hono/zod-openapi";
import { AppFailure, orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, ErrorEnvelope, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { guardStored } from "./guard-stored";
import type { RunsNeeds } from "./index";
import { actorOf, callRun, runErrors } from "./run-call";
import {
  CompleteBody,
  CompleteResponse,
  CreateRunBody,
  CreateRunResponse,
  ExplainExit,
  HeartbeatBody,
  HeartbeatResponse,
  ItemsAdded,
  ItemsBody,
  LeaseBody,
  LeaseResponse,
  MAX_ORDER_BYTES,
  OrderBody,
  OrderCreated,
  OrderParams,
  RunParams,
  RunView,
  StopBody,
  StopResponse,
} from "./schemas";
import { completeAttempt, itemTexts, startRun } from "./use-cases";

const errors = { ...commonErrors, ...runErrors };
const backpressureError = {
  description: "rate_limited, or backpressure: the team's board is over max_ready; nothing was created (Retry-After)",
  content: { "application/json": { schema: ErrorEnvelope } },
};

export const runsRoutes = featureApp<RunsNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs",
      tags: ["runs"],
      summary: "Start a run: takes the policy-memory snapshot and returns memory hints",
      description:
        "With `items` (WorkItem v1) the run carries a declared work graph: each item is released as an order once " +
        "every item it depends on passed. A bad graph (unknown or self dependency, cycle, duplicate id, more than " +
        "500 items, an input over 64 KiB) is refused with 400 naming every failing path; nothing is created.",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { body: jsonBody(CreateRunBody) },
      responses: {
        201: jsonResponse(CreateRunResponse, "the run, PENDING until its first lease"),
        ...errors,
        429: backpressureError,
      },
    }),
    async (c) => {
      return c.json(await startRun(c.env.deps, c.get("principal"), c.req.valid("json")), 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/runs/{run_id}",
      tags: ["runs"],
      summary: "A run: last 10 steps, orders, gates, hints, budget, dead letters",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write")] as const,
      request: { params: RunParams },
      responses: { 200: jsonResponse(RunView, "the run"), ...errors },
    }),
    async (c) => {
      const { run_id } = c.req.valid("param");
      const reply = await callRun(c.env.deps.runs, run_id, "view", { actor: actorOf(c.get("principal")) });
      return c.json(reply.value, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/runs/{run_id}/explain-exit",
      tags: ["runs"],
      summary: "Why the run ended: terminal step, decisions, gates, hints (ended:false while it runs)",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write")] as const,
      request: { params: RunParams },
      responses: { 200: jsonResponse(ExplainExit, "the explanation"), ...errors },
    }),
    async (c) => {
      const { run_id } = c.req.valid("param");
      const reply = await callRun(c.env.deps.runs, run_id, "explain", { actor: actorOf(c.get("principal")) });
      return c.json(reply.value, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/orders",
      tags: ["runs"],
      summary: "Post a work order (WorkOrder v1, with its optional skill); idempotent by order_id",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: RunParams, body: jsonBody(OrderBody) },
      responses: { 201: jsonResponse(OrderCreated, "the order, QUEUED"), ...errors },
    }),
    async (c) => {
      const { run_id } = c.req.valid("param");
      // a capability token is the worker's, never stored with the order
      const { skill, cap_token: _capToken, ...order } = c.req.valid("json");
      if (JSON.stringify(order).length > MAX_ORDER_BYTES)
        throw new AppFailure({ code: "payload_too_large", limitBytes: MAX_ORDER_BYTES });
      await guardStored({ goal: order.goal, input_json: order.input_json });
      const reply = await callRun(c.env.deps.runs, run_id, "add_order", {
        actor: actorOf(c.get("principal")),
        order,
        skill: skill ?? null,
      });
      return c.json(reply.value, 201);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/items",
      tags: ["runs"],
      summary: "Add work items to a live run's graph (a replan); new items may depend on finished ones",
      description:
        "Same rules as the items of POST /v1/runs, checked against the run's items too (ids are never reused). " +
        "A bad batch is refused with 400 naming every failing path and adds nothing.",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: RunParams, body: jsonBody(ItemsBody) },
      responses: {
        201: jsonResponse(ItemsAdded, "the items and their states (ready when released now)"),
        ...errors,
        429: backpressureError,
      },
    }),
    async (c) => {
      const { run_id } = c.req.valid("param");
      const { items } = c.req.valid("json");
      await guardStored(itemTexts(items, false));
      const principal = c.get("principal");
      orFail(await c.env.deps.board.forTeam(principal.teamId).admit());
      const reply = await callRun(c.env.deps.runs, run_id, "add_items", { actor: actorOf(principal), items });
      return c.json(reply.value, 201);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/orders/{order_id}/lease",
      tags: ["runs"],
      summary: "Lease an order (30 s, heartbeat every 10 s); 409 while someone holds it",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: OrderParams, body: jsonBody(LeaseBody) },
      responses: { 200: jsonResponse(LeaseResponse, "the lease and the order to work on"), ...errors },
    }),
    async (c) => {
      const { run_id, order_id } = c.req.valid("param");
      const { worker_id } = c.req.valid("json");
      const reply = await callRun(c.env.deps.runs, run_id, "lease", {
        actor: actorOf(c.get("principal")),
        order_id,
        worker_id,
      });
      return c.json(reply.value, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/orders/{order_id}/heartbeat",
      tags: ["runs"],
      summary: "Extend a lease; 409 and no change for a stale epoch or an expired lease",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: OrderParams, body: jsonBody(HeartbeatBody) },
      responses: { 200: jsonResponse(HeartbeatResponse, "the new expiry"), ...errors },
    }),
    async (c) => {
      const { run_id, order_id } = c.req.valid("param");
      const body = c.req.valid("json");
      const reply = await callRun(c.env.deps.runs, run_id, "heartbeat", {
        actor: actorOf(c.get("principal")),
        order_id,
        ...body,
      });
      return c.json(reply.value, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/orders/{order_id}/complete",
      tags: ["runs"],
      summary: "Complete an attempt; the answer is the next step. Idempotent by op_id",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: OrderParams, body: jsonBody(CompleteBody) },
      responses: {
        200: jsonResponse(CompleteResponse, "next: complete | retry | gate | dead_letter | replan"),
        ...errors,
      },
    }),
    async (c) => {
      const { run_id, order_id } = c.req.valid("param");
      const reply = await completeAttempt(c.env.deps, c.get("principal"), { run_id, order_id }, c.req.valid("json"));
      return c.json(reply, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/stop",
      tags: ["runs"],
      summary: "Stop a run: open leases revoked, pending gates aborted",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: RunParams, body: { ...jsonBody(StopBody), required: false } },
      responses: { 200: jsonResponse(StopResponse, "the stopped run"), ...errors },
    }),
    async (c) => {
      const { run_id } = c.req.valid("param");
      const { reason } = c.req.valid("json");
      await guardStored({ reason });
      const reply = await callRun(c.env.deps.runs, run_id, "stop", {
        actor: actorOf(c.get("principal")),
        reason: reason ?? null,
      });
      return c.json(reply.value, 200);
    },
  );
