// POST /v1/admin/memory/migrate: one page of the calling team's copy of its memory rows from D1 into its team object.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { MemoryMigrationNeeds } from "./index";

/** no team_id: the team is the verified token's, so no body can name another team */
const MigrateBody = z
  .strictObject({ batch: z.number().int().min(1).max(500).describe("memories to copy in this call") })
  .meta({ id: "MemoryMigrateRequest", example: { batch: 200 } });
const MigrateResponse = z.object({
  copied: z.number().int().describe("memories copied into the team object so far"),
  total: z.number().int().describe("the team's memories in D1"),
  done: z.boolean().describe("true once both sides verified and the team was switched to its object"),
  verified_hash: z.string().optional().describe("SHA-256 over the sorted (id, content_hash, tier, importance) rows"),
  switched_at: z.number().int().optional(),
});

export const memoryMigrationRoutes = featureApp<MemoryMigrationNeeds>().openapi(
  createRoute({
    method: "post",
    path: "/v1/admin/memory/migrate",
    tags: ["memory"],
    summary:
      "Copy the next page of the team's memory rows from D1 into its team object; at the end verify and switch (resumable, idempotent)",
    security: bearer,
    middleware: [requireScope("policy:admin")] as const,
    request: { body: jsonBody(MigrateBody) },
    responses: {
      200: jsonResponse(MigrateResponse, "the copy's progress"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { batch } = c.req.valid("json");
    const progress = await c.env.deps.memoryMigration.next(c.get("principal").teamId, batch);
    return c.json(orFail(progress), 200);
  },
);
