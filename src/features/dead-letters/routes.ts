// The team's dead letters: GET /v1/dead-letters (filters) and GET /v1/dead-letters/:dead_letter_id (with its review).
import { createRoute } from "@hono/zod-openapi";
import type { Principal } from "../../auth/tokens";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonResponse } from "../../http/openapi";
import { actorOf, runErrors } from "../runs";
import type { DeadLetterNeeds } from "./index";
import { DeadLetterDetail, DeadLetterList, DeadLetterListQuery, DeadLetterParams } from "./schemas";
import { listDeadLetters, type Reader, showDeadLetter } from "./use-cases";

const readerOf = (p: Principal): Reader => ({
  teamId: p.teamId,
  actor: actorOf(p),
  ...(p.runId !== undefined ? { runId: p.runId } : {}),
});

export const deadLetterRoutes = featureApp<DeadLetterNeeds>()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/dead-letters",
      tags: ["runs"],
      summary: "The team's dead letters (default: open), oldest first, each with its review gate when it has one",
      description:
        "Read from the D1 record the run objects write a few milliseconds after an order is dead-lettered. " +
        "A run-bound token sees its run's only. Reissue one with its review gate (POST /v1/gates/:gate_id/decision) " +
        "or, without a review, a dead_letter_reissue gate (POST /v1/runs/:run_id/gates).",
      security: bearer,
      middleware: [requireScope("runs:read", "approvals:decide")] as const,
      request: { query: DeadLetterListQuery },
      responses: { 200: jsonResponse(DeadLetterList, "dead letters, oldest first"), ...commonErrors },
    }),
    async (c) => {
      const q = c.req.valid("query");
      const query = {
        status: q.status,
        limit: q.limit,
        ...(q.reason !== undefined ? { reason: q.reason } : {}),
        ...(q.since !== undefined ? { since: q.since } : {}),
        ...(q.run_id !== undefined ? { runId: q.run_id } : {}),
      };
      return c.json(await listDeadLetters(c.env.deps.deadLetterIndex, readerOf(c.get("principal")), query), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/dead-letters/{dead_letter_id}",
      tags: ["runs"],
      summary: "One dead letter: its order, reason and failure class, and its review gate with the evidence and digest",
      security: bearer,
      middleware: [requireScope("runs:read", "approvals:decide")] as const,
      request: { params: DeadLetterParams },
      responses: { 200: jsonResponse(DeadLetterDetail, "the dead letter"), ...commonErrors, ...runErrors },
    }),
    async (c) => {
      const { dead_letter_id } = c.req.valid("param");
      const shown = await showDeadLetter(c.env.deps, readerOf(c.get("principal")), dead_letter_id);
      if (!shown.ok) throw new AppFailure(shown.error);
      return c.json(shown.value, 200);
    },
  );
