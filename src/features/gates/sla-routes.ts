// GET/PUT /v1/gates/sla: a team's gate SLAs — time zone, business hours, acknowledge and resolve SLAs per severity.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { DEFAULT_GATE_SLA, GateSlaSettings } from "./sla";
import { type GateSlaNeeds, putTeamSla, teamSla } from "./sla-use-cases";

export type GateSlaRouteNeeds = Pick<GateSlaNeeds, "gateSla"> & { newId: (prefix: string) => string };

const TeamSlaView = z
  .object({
    team_id: z.string(),
    source: z.enum(["default", "team"]).meta({ description: "default: the seed's SLAs; team: set by PUT" }),
    settings: GateSlaSettings,
    updated_by: z.string().nullable(),
    updated_at: z.int().nullable(),
  })
  .meta({
    id: "TeamGateSla",
    example: { team_id: "team-a", source: "default", settings: DEFAULT_GATE_SLA, updated_by: null, updated_at: null },
  });

export const gateSlaRoutes = featureApp<GateSlaRouteNeeds>()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/gates/sla",
      tags: ["gates"],
      summary: "The team's gate SLAs (the seed's defaults until PUT sets its own)",
      security: bearer,
      middleware: [requireScope("runs:read", "approvals:decide", "policy:admin")] as const,
      responses: { 200: jsonResponse(TeamSlaView, "the team's SLAs"), ...commonErrors },
    }),
    async (c) => c.json(await teamSla(c.env.deps.gateSla, c.get("principal").teamId), 200),
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/gates/sla",
      tags: ["gates"],
      summary: "Sets the team's gate SLAs (all fields; audited as gate_sla.updated)",
      description:
        "Time zone (IANA), business hours (ISO weekdays, local HH:MM, at least an hour), minutes to acknowledge a " +
        "gate opened in and outside business hours, and per severity how long it may stay open: `{minutes}` " +
        "(wall clock), `{business_minutes}` (business hours only) or `{next_business_day: true}`. Gates already " +
        "open are measured with the new SLAs from now on.",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(GateSlaSettings) },
      responses: { 200: jsonResponse(TeamSlaView, "the team's SLAs after the change"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const p = c.get("principal");
      if (p.runId) throw new AppFailure({ code: "forbidden", message: "a run-bound token cannot change team SLAs" });
      const body = c.req.valid("json");
      return c.json(await putTeamSla(deps, p.teamId, p.subject, body, deps.clock.now()), 200);
    },
  );
