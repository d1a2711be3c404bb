// Team-wide run routes for a fleet: GET /v1/runs (cursor pagination) and POST /v1/orders/lease-next (pull work).
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { BoardGateway } from "../../ports/board";
import type { RunsNeeds } from "./index";
import { runErrors } from "./run-call";
import { LeaseResponse } from "./schemas";
import type { ListCursor, RunIndex } from "./store/run-index-port";
import { leaseNext } from "./use-cases";

/** What the fleet routes need: the run routes' needs plus the team-wide index. */
export type RunsFleetNeeds = RunsNeeds & {
  runIndex: Pick<RunIndex, "listRuns" | "availableOrders">;
  board: BoardGateway;
};

const errors = { ...commonErrors, ...runErrors };
const RUN_STATUSES = ["PENDING", "RUNNING", "COMPLETE", "DEAD_LETTER", "STOPPED"] as const;

export const encodeCursor = (c: ListCursor) => btoa(`${c.at}.${c.id}`).replaceAll("=", "");
export function decodeCursor(raw: string): ListCursor | null {
  try {
    const m = /^(\d{1,16})\.([\w-]{1,128})$/.exec(atob(raw));
    return m ? { at: Number(m[1]), id: m[2] as string } : null;
  } catch {
    return null;
  }
}

export const RunListQuery = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  kind: z.enum(["agent", "control"]).optional().meta({ description: "agent (default: both) or control" }),
  cursor: z.string().max(256).optional().meta({ description: "next_cursor of the previous page" }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const RunList = z
  .object({
    runs: z.array(
      z.object({
        run_id: z.string(),
        goal: z.string(),
        status: z.string(),
        kind: z.string(),
        created_at: z.int(),
        updated_at: z.int(),
      }),
    ),
    next_cursor: z.string().nullable().meta({ description: "pass as ?cursor= for the next page; null on the last" }),
  })
  .meta({
    id: "RunList",
    example: {
      runs: [
        {
          run_id: "run_5b0c…",
          goal: "Health: Extract & Verify",
          status: "RUNNING",
          kind: "agent",
          created_at: 1767225600000,
          updated_at: 1767225612000,
        },
      ],
      next_cursor: null,
    },
  });

export const LeaseNextBody = z
  .strictObject({
    worker_id: z.string().min(1).max(128),
    skills: z
      .array(z.string().min(1).max(128))
      .max(32)
      .optional()
      .meta({ description: "the worker's skills: orders with another skill are skipped; orders without one match" }),
    persona_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "the persona the worker acts as (the token's persona_id, when it has one, must match)" }),
  })
  .meta({ id: "LeaseNextRequest", example: { worker_id: "worker-7", skills: ["extract"], persona_id: "extractor" } });
export const LeaseNextResponse = LeaseResponse.extend({ run_id: z.string(), order_id: z.string() }).meta({
  id: "LeaseNext",
});

export const runsFleetRoutes = featureApp<RunsFleetNeeds>()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/runs",
      tags: ["runs"],
      summary: "The team's runs, newest first, with cursor pagination (?status=, ?kind=, ?cursor=, ?limit=)",
      description: "Read from the D1 run index (written just after each change).",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write")] as const,
      request: { query: RunListQuery },
      responses: { 200: jsonResponse(RunList, "a page of runs"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const q = c.req.valid("query");
      let cursor: ListCursor | undefined;
      if (q.cursor !== undefined) {
        const decoded = decodeCursor(q.cursor);
        if (!decoded) {
          const message = "cursor is not a next_cursor this API returned";
          throw new AppFailure({ code: "validation_failed", message, issues: [{ path: "cursor", message }] });
        }
        cursor = decoded;
      }
      const rows = await deps.runIndex.listRuns(principal.teamId, {
        ...(q.status ? { status: q.status } : {}),
        ...(q.kind ? { kind: q.kind } : {}),
        ...(cursor ? { cursor } : {}),
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit).filter((r) => principal.runId === undefined || r.run_id === principal.runId);
      const last = rows.length > q.limit ? rows[q.limit - 1] : undefined;
      return c.json(
        { runs: page, next_cursor: last ? encodeCursor({ at: last.created_at, id: last.run_id }) : null },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/orders/lease-next",
      tags: ["runs"],
      summary: "Lease the team's next order: graph items by priority, fair share and age, else the oldest order",
      description:
        "First the team's work board (strongly consistent, one Durable Object per team): among the ready items " +
        "this worker may take (skill; persona identity and the persona's concurrency_limit across all runs) the " +
        "highest priority, then the run with the fewest recent leases, then the oldest. Over the team's " +
        "max_tokens_per_hour new leases wait (204). Then orders posted without a graph: the oldest queued " +
        "orders of the team's open runs (an order without a skill matches any worker; without `skills` every order " +
        "matches). 204 with Retry-After (seconds) when none is available now.",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { body: jsonBody(LeaseNextBody) },
      responses: {
        200: jsonResponse(LeaseNextResponse, "the lease, with the run and order it is on"),
        204: { description: "nothing to lease now; Retry-After says when to ask again" },
        ...errors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const body = c.req.valid("json");
      const next = await leaseNext(deps, principal, body);
      if (next.leased) return c.json(next.lease, 200);
      return c.body(null, 204, { "Retry-After": String(next.retryAfterS) });
    },
  );
