// GET/PUT /v1/limits (policy:admin): a team's rate limits per route class — the defaults, and its team_limit overrides.
// Lowering or staying within the defaults applies at once; raising any rate above its default waits for a second person
// (a policy_deploy hard gate, deploy target "limits"); nothing passes the deployment's ceiling.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import {
  type ClassLimit,
  ceilingProblems,
  DEFAULT_CEILING_MULTIPLE,
  MAX_LIMIT,
  MAX_PERIOD_S,
  ROUTE_CLASSES,
  type RouteClass,
  ratesAbove,
} from "../../http/rate-limits";
import { assertTeamWideProposer, DeployAccepted, proposeDeploy } from "../gates";
import type { LimitsNeeds } from "./needs";

const Count = z.int().min(1).max(MAX_LIMIT);
const ClassLimitBody = z
  .strictObject({
    per_team: Count.describe("requests per period for the whole team"),
    per_subject: Count.describe("requests per period for one token subject (≤ per_team)"),
    period_s: z.int().min(1).max(MAX_PERIOD_S).default(60).describe("the sliding window, seconds (default 60)"),
  })
  .refine((l) => l.per_subject <= l.per_team, {
    message: "per_subject must not exceed per_team",
    path: ["per_subject"],
  });

const classes = Object.fromEntries(ROUTE_CLASSES.map((c) => [c, ClassLimitBody.optional()])) as Record<
  RouteClass,
  z.ZodOptional<typeof ClassLimitBody>
>;

const PutLimitsBody = z
  .strictObject({ limits: z.strictObject(classes) })
  .refine((b) => Object.values(b.limits).some((v) => v !== undefined), {
    message: "name at least one route class",
    path: ["limits"],
  })
  .meta({
    id: "PutTeamLimits",
    example: { limits: { decide: { per_team: 12000, per_subject: 2400, period_s: 60 } } },
  });

const ClassLimitView = z.object({
  per_team: z.int(),
  per_subject: z.int(),
  period_s: z.int(),
  source: z.enum(["default", "team"]),
});
const LimitsView = z
  .object({ team_id: z.string(), limits: z.record(z.enum(ROUTE_CLASSES), ClassLimitView) })
  .meta({ id: "TeamLimits" });

const LimitsPending = DeployAccepted.omit({ diff: true })
  .extend({
    limits: PutLimitsBody.shape.limits,
    above_default: z.array(z.string()).describe("the values above their class's default rate, which need the gate"),
  })
  .meta({ id: "TeamLimitsPending" });

const wire = (l: ClassLimit, source: "default" | "team") => ({
  per_team: l.perTeam,
  per_subject: l.perSubject,
  period_s: l.periodS,
  source,
});

/** The team's effective limits, read from the store (not the cache), each marked default or team override. */
async function effective(
  deps: LimitsNeeds & { limits: { team: { defaults: Record<RouteClass, ClassLimit> } } },
  teamId: string,
) {
  const rows = new Map((await deps.teamLimitStore.forTeam(teamId)).map((r) => [r.routeClass, r]));
  const limits = Object.fromEntries(
    ROUTE_CLASSES.map((c) => {
      const row = rows.get(c);
      return [c, row ? wire(row, "team") : wire(deps.limits.team.defaults[c], "default")];
    }),
  ) as Record<RouteClass, ReturnType<typeof wire>>;
  return { team_id: teamId, limits };
}

export const limitsRoutes = featureApp<LimitsNeeds>()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/limits",
      tags: ["limits"],
      summary: "The team's rate limits per route class: the defaults and the team's overrides",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      responses: { 200: jsonResponse(LimitsView, "the team's effective limits"), ...commonErrors },
    }),
    async (c) => c.json(await effective(c.env.deps, c.get("principal").teamId), 200),
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/limits",
      tags: ["limits"],
      summary:
        "Overrides the team's limits for the named route classes (audited). Within the defaults: applied at once (this " +
        "isolate; others within 60 s). A rate above its class's default: the whole change waits behind a policy_deploy " +
        "hard gate (202) that another person approves. Above the deployment's ceiling: 422, nothing stored.",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(PutLimitsBody) },
      responses: {
        200: jsonResponse(LimitsView, "the team's effective limits after the change"),
        202: jsonResponse(LimitsPending, "an increase above the defaults: pending; approve the gate to apply"),
        ...commonErrors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const p = c.get("principal");
      if (p.runId) {
        throw new AppFailure({ code: "forbidden", message: "a run-bound token cannot change team limits" });
      }
      const now = deps.clock.now();
      const changes = Object.entries(c.req.valid("json").limits).filter(
        (e): e is [RouteClass, z.infer<typeof ClassLimitBody>] => e[1] !== undefined,
      );
      const rows = changes.map(([routeClass, l]) => ({
        routeClass,
        perTeam: l.per_team,
        perSubject: l.per_subject,
        periodS: l.period_s,
      }));
      // the deployment's ceiling, not the team's: an admin cannot lift the team's limits past it alone
      const over = ceilingProblems(
        rows.map((r) => [r.routeClass, r]),
        deps.limits.team.defaults,
        deps.limits.ceilingMultiple ?? DEFAULT_CEILING_MULTIPLE,
      );
      if (over.length > 0) {
        throw new AppFailure({
          code: "rejected",
          message: over.map((o) => `${o.path}: ${o.message}`).join("; "),
          ruleIds: ["limits.ceiling"],
        });
      }
      const raised = ratesAbove(
        rows.map((r) => [r.routeClass, r]),
        deps.limits.team.defaults,
        1,
      ).map((o) => o.path);
      if (raised.length > 0) {
        assertTeamWideProposer(p);
        const version = await deps.teamLimitStore.addRequest(p.teamId, rows, p.subject, now);
        const limits = Object.fromEntries(changes);
        const proposed = await proposeDeploy(deps, p, "limits", version, { limits, above_default: raised });
        return c.json({ ...proposed, limits, above_default: raised }, 202);
      }
      await deps.teamLimitStore.putAll(p.teamId, rows, now, {
        id: deps.newId("aud_limits"),
        teamId: p.teamId,
        actor: p.subject,
        action: "team_limits.updated",
        subjectType: "team_limit",
        subjectId: p.teamId,
        metadata: { limits: Object.fromEntries(changes) },
        createdAt: now,
      });
      deps.limits.team.invalidate(p.teamId);
      return c.json(await effective(deps, p.teamId), 200);
    },
  );
