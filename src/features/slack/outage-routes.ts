// POST /v1/slack/outage/override: the two-person override of a team's approval-outage fallback (RB-06).
import { createRoute, z } from "@hono/zod-openapi";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, ErrorEnvelope, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { OVERRIDE_DEFAULT_TTL_MS, type OverrideNeeds, overrideOutage } from "./outage";

export const OutageOverrideBody = z
  .strictObject({
    reason: z.string().trim().min(1).max(500).describe("why the fallback should be off (audited)"),
    ttl_minutes: z
      .int()
      .min(1)
      .max(240)
      .optional()
      .describe("how long the override lasts once confirmed (default 60); the requester's value counts"),
  })
  .meta({ id: "OutageOverride", example: { reason: "approving INC-42 gates through the CLI", ttl_minutes: 30 } });

const OutageOverrideState = z
  .object({
    team_id: z.string(),
    status: z.enum(["pending", "active"]).meta({ description: "pending: waiting for a second, different admin" }),
    outage_since: z.int(),
    requested_by: z.string(),
    requested_at: z.int(),
    reason: z.string(),
    confirmed_by: z.string().nullable(),
    expires_at: z.int().nullable().meta({ description: "the fallback is back on then (or when Slack is back)" }),
  })
  .meta({ id: "OutageOverrideState" });

export const outageRoutes = featureApp<OverrideNeeds>().openapi(
  createRoute({
    method: "post",
    path: "/v1/slack/outage/override",
    tags: ["slack"],
    summary:
      "Turn the approval-outage fallback off for the caller's team (two-person rule: a second, different admin confirms)",
    description:
      "While Slack deliveries to a team fail, its hard gates are denied automatically (RB-06). The first admin's " +
      "call records a pending override (valid 15 minutes); a different admin's call confirms it, and the fallback " +
      "stays off until Slack is back or the override expires. The same admin twice → 409. No outage → 409.",
    security: bearer,
    middleware: [requireScope("policy:admin")] as const,
    request: { body: jsonBody(OutageOverrideBody) },
    responses: {
      200: jsonResponse(OutageOverrideState, "the override: pending (first admin) or active (confirmed)"),
      409: {
        description: "conflict: no outage, the same admin again, or a concurrent change",
        content: { "application/json": { schema: ErrorEnvelope } },
      },
      ...commonErrors,
    },
  }),
  async (c) => {
    const principal = c.get("principal");
    const body = c.req.valid("json");
    const ttl_ms = body.ttl_minutes === undefined ? OVERRIDE_DEFAULT_TTL_MS : body.ttl_minutes * 60_000;
    const r = await overrideOutage(c.env.deps, principal.teamId, principal.subject, { reason: body.reason, ttl_ms });
    if (!r.ok) throw new AppFailure(r.error);
    return c.json(r.value, 200);
  },
);
