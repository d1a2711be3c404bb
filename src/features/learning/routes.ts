// /v1/events (task/run events into the learning queue), /v1/policy-memory (snapshot, breaker reset), /v1/routing/rank.

import { createRoute } from "@hono/zod-openapi";
import { InternalEvent } from "../../../contracts/internal-events";
import { TaskEventV1 } from "../../../contracts/task-event.v1";
import { AppFailure, orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { canonicalJson } from "../../lib/digest";
import { within } from "../../lib/within";
import { resetLearningBreaker } from "./breaker-reset";
import type { LearningNeeds } from "./needs";
import {
  BreakerResetResponse,
  EntryParams,
  EventAccepted,
  PolicyMemorySnapshot,
  RankBody,
  RankResponse,
} from "./schemas";
import { rankForRouting, snapshotPolicyMemory } from "./snapshot";

/** The longest POST /v1/events waits for task.failed / task.blocked hints before answering without them. */
export const EVENT_HINTS_WAIT_MS = 300;

/** Queue ids of API events are scoped by team, so one team's event_id can never shadow another's. */
export const apiEventId = (teamId: string, eventId: string) => `api:${teamId}:${eventId}`;

export const learningRoutes = featureApp<LearningNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/events",
      tags: ["learning"],
      summary:
        "Queue a task or run event for the learning consumer (applied once per event_id); task.failed and " +
        "task.blocked answer with memory hints (best-effort, at most 300 ms)",
      security: bearer,
      middleware: [requireScope("events:write")] as const,
      request: { body: jsonBody(TaskEventV1) },
      responses: { 202: jsonResponse(EventAccepted, "queued to EVENTS"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const body = c.req.valid("json");
      if (principal.runId !== undefined && principal.runId !== body.run_id) {
        throw new AppFailure({ code: "forbidden", message: "this token is bound to another run" });
      }
      const now = deps.clock.now();
      const stated =
        body.occurred_at === undefined
          ? now
          : typeof body.occurred_at === "number"
            ? body.occurred_at
            : Date.parse(body.occurred_at);
      // the queued event is checked against the internal-event schema the consumer parses with
      const event = InternalEvent.parse({
        ...body,
        event_id: apiEventId(principal.teamId, body.event_id),
        client_event_id: body.event_id,
        team_id: principal.teamId,
        // a clock ahead of ours must not keep entries from decaying
        occurred_at: Math.min(stated, now),
        source: "api",
      });
      if (body.type !== "task.failed" && body.type !== "task.blocked") {
        await deps.events.publish([event]);
        return c.json({ event_id: body.event_id, status: "queued" as const }, 202);
      }
      // the hints are looked up while the event is queued; the answer never waits more than EVENT_HINTS_WAIT_MS for them
      const [, hints] = await Promise.all([
        deps.events.publish([event]),
        within(
          deps.hints.forTaskFailure(
            principal.teamId,
            {
              reasonBucket: body.reason ?? body.failure_class ?? "unknown",
              taskKey: body.task_key ?? body.task_id,
              runId: body.run_id,
              projectId: body.project_id,
            },
            now,
          ),
          EVENT_HINTS_WAIT_MS,
          [],
        ),
      ]);
      return c.json({ event_id: body.event_id, status: "queued" as const, hints: hints.value }, 202);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/policy-memory",
      tags: ["learning"],
      summary: "The team's policy memory: entries by skill, routing weights, retry adjustments (decay applied)",
      security: bearer,
      middleware: [requireScope("runs:read", "policy:decide", "policy:admin")] as const,
      responses: { 200: jsonResponse(PolicyMemorySnapshot, "the snapshot as of now"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      return c.json(await snapshotPolicyMemory(deps, c.get("principal").teamId, deps.clock.now()), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/policy-memory/entries/{entry_id}/reset",
      tags: ["learning"],
      summary:
        "Restart learning for an entry the circular-learning breaker stopped (ledger-logged, audited; counters kept)",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { params: EntryParams },
      responses: { 200: jsonResponse(BreakerResetResponse, "the entry learns again"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const result = await resetLearningBreaker(
        deps,
        { teamId: principal.teamId, subject: principal.subject },
        c.req.valid("param").entry_id,
        deps.clock.now(),
      );
      return c.json(orFail(result), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/routing/rank",
      tags: ["learning"],
      summary: "Order skills by their effective weight (cold-start 1.0; ties by name)",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write", "policy:decide")] as const,
      request: { body: jsonBody(RankBody) },
      responses: { 200: jsonResponse(RankResponse, "skills, best first"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const { skills, context } = c.req.valid("json");
      const ctx =
        context === undefined || context === "" ? null : typeof context === "string" ? context : canonicalJson(context);
      return c.json(await rankForRouting(deps, c.get("principal").teamId, skills, ctx, deps.clock.now()), 200);
    },
  );
