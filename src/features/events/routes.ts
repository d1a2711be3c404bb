// GET /v1/audit: the caller's team's audit entries (refused memory writes, rollbacks, …), newest first, paged.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonResponse } from "../../http/openapi";
import { decodeAuditCursor } from "../audit/domain";
import { listAudit } from "./audit";
import type { EventsNeeds } from "./needs";

const AuditQuery = z.strictObject({
  type: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]+)*$/, "an event or action type such as memory_store_failed")
    .max(64)
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z
    .string()
    .max(512)
    .refine((c) => decodeAuditCursor(c) !== null, "a next_cursor from a previous page")
    .optional(),
});

const AuditEntryWire = z.object({
  id: z.string(),
  type: z.string(),
  actor: z.string(),
  subject_type: z.string(),
  subject_id: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  at: z.string(),
});

export const AuditResponse = z
  .object({ team_id: z.string(), entries: z.array(AuditEntryWire), next_cursor: z.string().nullable() })
  .meta({
    id: "AuditPage",
    example: {
      team_id: "team_1",
      entries: [
        {
          id: "aud_evt:evt_3f2a",
          type: "memory_store_failed",
          actor: "memory.write",
          subject_type: "memory_scope",
          subject_id: "team/team_1/org",
          metadata: {
            event_id: "evt_3f2a",
            run_id: null,
            source: "memory.write",
            code: "redaction_required",
            rule_ids: ["secret.aws_access_key"],
            class: "semantic",
          },
          at: "2026-11-23T20:00:00.000Z",
        },
      ],
      next_cursor: null,
    },
  });

export const eventsRoutes = featureApp<EventsNeeds>().openapi(
  createRoute({
    method: "get",
    path: "/v1/audit",
    tags: ["audit"],
    summary:
      "The team's audit entries, newest first: refused memory writes (memory_store_failed, task.memory_store_failed), policy.rollback, …",
    security: bearer,
    middleware: [requireScope("runs:read")] as const,
    request: { query: AuditQuery },
    responses: { 200: jsonResponse(AuditResponse, "one page of the team's audit entries"), ...commonErrors },
  }),
  async (c) => {
    const { deps } = c.env;
    const teamId = c.get("principal").teamId;
    const page = await listAudit(deps.auditLog, teamId, c.req.valid("query"));
    return c.json(
      {
        team_id: teamId,
        entries: page.entries.map((e) => ({
          id: e.id,
          type: e.action,
          actor: e.actor,
          subject_type: e.subjectType,
          subject_id: e.subjectId,
          metadata: e.metadata,
          at: new Date(e.createdAt).toISOString(),
        })),
        next_cursor: page.nextCursor,
      },
      200,
    );
  },
);
