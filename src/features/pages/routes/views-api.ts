// POST /v1/views: mints a signed, read-only view URL (≤ 15 min) for one of the caller's runs or the caller's team overview.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { mintViewToken, type ViewScope } from "../../../auth/view-token";
import { AppFailure } from "../../../errors";
import { requireScope } from "../../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../../http/openapi";
import { actorOf, callRun, runErrors } from "../../runs";
import type { PagesNeeds } from "../needs";

const id = z.string().min(1).max(128);

export const ViewRequest = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("run"), run_id: id }),
    z.strictObject({ kind: z.literal("team") }),
  ])
  .meta({ id: "ViewRequest", example: { kind: "run", run_id: "run_5b0c…" } });

export const ViewResponse = z
  .object({
    url: z.string(),
    expires_at: z.string(),
  })
  .meta({
    id: "ViewUrl",
    example: {
      url: "https://warden.example/runs/run_5b0c…/trace?view=eyJ2Ijox….Qm9v",
      expires_at: "2026-01-01T00:15:00.000Z",
    },
  });

export const viewsApi = featureApp<PagesNeeds>().openapi(
  createRoute({
    method: "post",
    path: "/v1/views",
    tags: ["pages"],
    summary: "A signed read-only URL (≤ 15 min) to a run's trace page or the caller's team overview",
    security: bearer,
    middleware: [requireScope("runs:read")] as const,
    request: { body: jsonBody(ViewRequest) },
    responses: {
      201: jsonResponse(ViewResponse, "the view URL and when it expires"),
      ...commonErrors,
      404: runErrors[404],
    },
  }),
  async (c) => {
    const { deps } = c.env;
    const principal = c.get("principal");
    const body = c.req.valid("json");
    let scope: ViewScope;
    let path: string;
    if (body.kind === "run") {
      // the run must be the caller's team's (404 otherwise; 403 when the token is bound to another run)
      await callRun(deps.runs, body.run_id, "view", { actor: actorOf(principal) });
      scope = { kind: "run", team_id: principal.teamId, run_id: body.run_id };
      path = `/runs/${encodeURIComponent(body.run_id)}/trace`;
    } else {
      if (principal.runId !== undefined) {
        throw new AppFailure({ code: "forbidden", message: "a run-bound token cannot open the team overview" });
      }
      scope = { kind: "team", team_id: principal.teamId };
      path = `/teams/${encodeURIComponent(principal.teamId)}/overview`;
    }
    const { token, expires_at_ms } = await mintViewToken(deps.config.WARDEN_JWT_SECRET, scope, deps.clock.now());
    // PUBLIC_URL only: a Host header is the caller's to choose, and a signed link must not point at their server
    const url = `${deps.config.PUBLIC_URL.replace(/(?<!\/)\/+$/, "")}${path}?view=${token}`;
    return c.json({ url, expires_at: new Date(expires_at_ms).toISOString() }, 201);
  },
);
