// GET/PUT /v1/artifacts/retention: a team's days per artifact kind, at most the deployment default (audited).
import { createRoute, z } from "@hono/zod-openapi";
import { AppFailure, orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { ARTIFACT_KINDS, type ArtifactKind, checkRetention, DEFAULT_RETENTION_DAYS, retentionDays } from "./domain";
import type { ArtifactsNeeds } from "./needs";

const Days = z.int().min(1).describe("days an artifact of this kind is kept, ≥ 1 and ≤ the deployment default");
const kinds = Object.fromEntries(ARTIFACT_KINDS.map((k) => [k, Days.optional()])) as Record<
  ArtifactKind,
  z.ZodOptional<typeof Days>
>;

const PutRetentionBody = z
  .strictObject({ days: z.strictObject(kinds) })
  .refine((b) => Object.values(b.days).some((v) => v !== undefined), {
    message: "name at least one kind",
    path: ["days"],
  })
  .meta({ id: "PutArtifactRetention", example: { days: { log: 7, trace: 14 } } });

const KindRetention = z.object({
  days: z.int(),
  default_days: z.int().describe("the deployment default, the most this kind may be set to"),
  source: z.enum(["default", "team"]),
});
const RetentionView = z
  .object({ team_id: z.string(), retention: z.record(z.enum(ARTIFACT_KINDS), KindRetention) })
  .meta({
    id: "ArtifactRetention",
    example: {
      team_id: "acme",
      retention: {
        log: { days: 7, default_days: 30, source: "team" },
        json: { days: 90, default_days: 90, source: "default" },
        blob: { days: 30, default_days: 30, source: "default" },
        trace: { days: 30, default_days: 30, source: "default" },
      },
    },
  });

/** The team's effective retention per kind, each marked as its own setting or the default. */
async function effective(deps: ArtifactsNeeds, teamId: string) {
  const own = await deps.artifactStore.retentionOf(teamId);
  const days = retentionDays(own);
  const retention = Object.fromEntries(
    ARTIFACT_KINDS.map((k) => [
      k,
      { days: days[k], default_days: DEFAULT_RETENTION_DAYS[k], source: own[k] === undefined ? "default" : "team" },
    ]),
  ) as Record<ArtifactKind, z.infer<typeof KindRetention>>;
  return { team_id: teamId, retention };
}

export const retentionRoutes = featureApp<ArtifactsNeeds>()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/artifacts/retention",
      tags: ["artifacts"],
      summary: "The team's artifact retention per kind: its own settings and the deployment defaults",
      security: bearer,
      middleware: [requireScope("runs:read")] as const,
      responses: { 200: jsonResponse(RetentionView, "the team's effective retention"), ...commonErrors },
    }),
    async (c) => c.json(await effective(c.env.deps, c.get("principal").teamId), 200),
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/artifacts/retention",
      tags: ["artifacts"],
      summary:
        "Sets the team's retention for the named kinds (audited; the daily sweep applies it to artifacts already " +
        "stored too). Below 1 day: 400; above the kind's deployment default: 422 naming the kind and the bound. " +
        "Refused: nothing stored.",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(PutRetentionBody) },
      responses: {
        200: jsonResponse(RetentionView, "the team's effective retention after the change"),
        ...commonErrors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const p = c.get("principal");
      if (p.runId) {
        throw new AppFailure({ code: "forbidden", message: "a run-bound token cannot change the team's retention" });
      }
      const body = c.req.valid("json").days;
      const named = Object.fromEntries(Object.entries(body).filter(([, d]) => d !== undefined));
      const days = orFail(checkRetention(named));
      const now = deps.clock.now();
      await deps.artifactStore.putRetention(p.teamId, days, {
        id: deps.newId("aud_retention"),
        teamId: p.teamId,
        actor: p.subject,
        action: "artifact_retention.updated",
        subjectType: "artifact_retention",
        subjectId: p.teamId,
        metadata: { days },
        createdAt: now,
      });
      return c.json(await effective(deps, p.teamId), 200);
    },
  );
