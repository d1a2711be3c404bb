// /v1/memory and /v1/sessions/events: guarded writes, ranked queries, validated use, rigid import, activation, episodes.
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { SessionEventV1 } from "../../../contracts/session-event.v1";
import sessionEventExample from "../../../contracts/session-event.v1.example.json";
import { orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, ErrorEnvelope, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { FeatureEnv } from "../../http/types";
import { checkEvidence } from "./evidence";
import type { MemoryNeeds } from "./needs";
import {
  ActivateBody,
  ActivateResponse,
  BulkBody,
  BulkResponse,
  ImportBody,
  ImportResponse,
  QueryBody,
  QueryResponse,
  SessionEventCreated,
  UseBody,
  UseResponse,
  WriteBody,
  WriteResponse,
} from "./schemas";

const refused = {
  422: {
    description:
      "redaction_required (secrets, token-like values, raw URLs), pii_detected (email, phone, card, SSN) or rejected (summary too long, raw logs); details.rule_ids names the rules, never the value",
    content: { "application/json": { schema: ErrorEnvelope } },
  },
};

const serverTiming = (t: Record<string, number>) =>
  Object.entries(t)
    .map(([k, v]) => `${k};dur=${v.toFixed(1)}`)
    .join(", ");

const defer = (c: Context<FeatureEnv<MemoryNeeds>>) => (work: Promise<unknown>) => c.executionCtx.waitUntil(work);

export const memoryRoutes = featureApp<MemoryNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/memory",
      tags: ["memory"],
      summary: "Store a memory (guarded: no secrets, PII, raw URLs or raw logs); near-duplicates reinforce",
      security: bearer,
      middleware: [requireScope("memory:write")] as const,
      request: { body: jsonBody(WriteBody) },
      responses: {
        201: jsonResponse(WriteResponse, "stored"),
        200: jsonResponse(WriteResponse, "a near-duplicate in the same namespace was reinforced instead"),
        ...commonErrors,
        ...refused,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const timing: Record<string, number> = {};
      const body = c.req.valid("json");
      orFail(await checkEvidence(deps.artifactStore, c.get("principal").teamId, [body.metadata]));
      const result = await deps.memory.write(c.get("principal"), body, deps.clock.now(), defer(c), {
        timing,
      });
      c.header("Server-Timing", serverTiming(timing));
      const { status, ...outcome } = orFail(result);
      return c.json({ ...outcome, status }, status === "created" ? 201 : 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/memory/bulk",
      tags: ["memory"],
      summary: "Store up to 100 memories at once (all guarded first, all or nothing; exact duplicates reinforce)",
      security: bearer,
      middleware: [requireScope("memory:write")] as const,
      request: { body: jsonBody(BulkBody) },
      responses: { 201: jsonResponse(BulkResponse, "stored, in request order"), ...commonErrors, ...refused },
    }),
    async (c) => {
      const { deps } = c.env;
      const { items } = c.req.valid("json");
      const teamId = c.get("principal").teamId;
      orFail(
        await checkEvidence(
          deps.artifactStore,
          teamId,
          items.map((i) => i.metadata),
        ),
      );
      const results = await deps.memory.writeMany(c.get("principal"), items, deps.clock.now(), defer(c));
      return c.json({ results: orFail(results) }, 201);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/memory/query",
      tags: ["memory"],
      summary: "Ranked memories: similarity × importance × recency, each factor shown",
      security: bearer,
      middleware: [requireScope("memory:read")] as const,
      request: { body: jsonBody(QueryBody) },
      responses: { 200: jsonResponse(QueryResponse, "best first; equal scores by id"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const timing: Record<string, number> = {};
      const results = await deps.memory.query(c.get("principal"), c.req.valid("json"), deps.clock.now(), timing);
      c.header("Server-Timing", serverTiming(timing));
      return c.json({ results: orFail(results) }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/memory/use",
      tags: ["memory"],
      summary: "Record validated use: +8 importance per memory for the caller's actor role (once per run), cap 1000",
      security: bearer,
      middleware: [requireScope("memory:write")] as const,
      request: { body: jsonBody(UseBody) },
      responses: { 200: jsonResponse(UseResponse, "which ids were used and boosted"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const { ids, run_id } = c.req.valid("json");
      return c.json(orFail(await deps.memory.use(c.get("principal"), ids, run_id, deps.clock.now())), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/memory/import",
      tags: ["memory"],
      summary: "Import rigid memory (charter, allowlist): the only way rigid memory is written",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(ImportBody) },
      responses: { 201: jsonResponse(ImportResponse, "imported (pinned, class rigid)"), ...commonErrors, ...refused },
    }),
    async (c) => {
      const { deps } = c.env;
      return c.json(
        orFail(await deps.memory.importRigid(c.get("principal"), c.req.valid("json"), deps.clock.now(), defer(c))),
        201,
      );
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/memory/activate",
      tags: ["memory"],
      summary: "Session start: stabilized routes, recent episodes, hints, llm_calls_avoided",
      security: bearer,
      middleware: [requireScope("memory:read")] as const,
      request: { body: jsonBody(ActivateBody) },
      responses: { 200: jsonResponse(ActivateResponse, "the activation"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      return c.json(
        orFail(await deps.sessions.activate(c.get("principal"), c.req.valid("json"), deps.clock.now())),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/sessions/events",
      tags: ["memory"],
      summary: "Record an ops-warden session_event.v1 episode (token-like values or raw URLs refused)",
      security: bearer,
      middleware: [requireScope("events:write", "memory:write")] as const,
      request: { body: jsonBody(SessionEventV1, sessionEventExample) },
      responses: { 201: jsonResponse(SessionEventCreated, "stored"), ...commonErrors, ...refused },
    }),
    async (c) => {
      const { deps } = c.env;
      return c.json(
        orFail(await deps.sessions.record(c.get("principal"), c.req.valid("json"), deps.clock.now(), defer(c))),
        201,
      );
    },
  );
