// POST /v1/routes/overrides: an operator retires a memory route (audited) or pins one (trend gate, then a hard gate).
import { createRoute, z } from "@hono/zod-openapi";
import { orFail } from "../../../errors";
import { requireScope } from "../../../http/middleware";
import { bearer, commonErrors, ErrorEnvelope, featureApp, jsonBody, jsonResponse } from "../../../http/openapi";
import type { AuditLogStore } from "../../../ports/audit-log";
import type { DecisionObjects } from "../../../ports/decision-log";
import { assertTeamWideProposer, proposeDeploy } from "../../gates";
import type { RouteLedger } from "../../memory/domain";
import { normalizeFingerprint } from "../../memory/domain";
import type { RunsService } from "../../runs";
import { trendGate } from "../promotion-evidence";
import type { PolicyStore } from "../store/policy-store-port";

export type RouteOverrideNeeds = {
  routeLedger: Pick<RouteLedger, "retire" | "clear" | "addPinRequest" | "sessionsWithServes">;
  policyStore: Pick<PolicyStore, "loggedDecisions">;
  /** the decision log's objects the trend gate reads */
  decisionObjects: DecisionObjects;
  auditLog: Pick<AuditLogStore, "append">;
  runs: RunsService;
  clock: { now(): number };
  newId: (prefix: string) => string;
};

const RouteOverrideBody = z
  .strictObject({
    need_fingerprint: z.string().regex(/^(sha256:)?[0-9a-f]{16,64}$/, "a hex digest, never the raw need"),
    route_id: z.string().min(1).max(128),
    /** retire: never serve it; pin: always serve it (hard gate); clear: back to its record */
    action: z.enum(["retire", "pin", "clear"]),
    note: z.string().max(500).optional(),
  })
  .meta({
    id: "RouteOverrideBody",
    example: { need_fingerprint: `sha256:${"9f2c".repeat(16)}`, route_id: "route.rotate-access", action: "retire" },
  });

const RouteOverrideResult = z
  .object({
    need_fingerprint: z.string(),
    route_id: z.string(),
    state: z.enum(["retired", "pinned", "pending_pin", "cleared", "unchanged"]),
    version: z.int().optional(),
    status: z.literal("pending").optional(),
    run_id: z.string().optional(),
    op_id: z.string().optional(),
    gate_id: z.string().optional(),
  })
  .meta({ id: "RouteOverrideResult" });

export const routeOverrideRoutes = featureApp<RouteOverrideNeeds>().openapi(
  createRoute({
    method: "post",
    path: "/v1/routes/overrides",
    tags: ["memory"],
    summary: "Retire (audited), clear (audited) or pin (pending behind a policy_deploy hard gate) a memory route",
    security: bearer,
    middleware: [requireScope("policy:admin")] as const,
    request: { body: jsonBody(RouteOverrideBody) },
    responses: {
      200: jsonResponse(RouteOverrideResult, "retired or cleared"),
      202: jsonResponse(RouteOverrideResult, "pin pending; approve the policy_deploy gate to apply"),
      409: jsonResponse(ErrorEnvelope, "regression: the team's trend regressed, nothing stored"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { deps } = c.env;
    const principal = c.get("principal");
    const body = c.req.valid("json");
    const need = normalizeFingerprint(body.need_fingerprint);
    const now = deps.clock.now();
    const base = { need_fingerprint: need, route_id: body.route_id };
    if (body.action === "pin") {
      assertTeamWideProposer(principal);
      // a pin changes routing: it passes evaluation_trend_regression_gate first (409 regression, nothing stored)
      const { trend } = orFail(await trendGate(deps, principal.teamId, now));
      const version = await deps.routeLedger.addPinRequest(
        principal.teamId,
        need,
        body.route_id,
        principal.subject,
        now,
      );
      // applied (route_override pinned) only once someone else approves the gate on the team's control run
      const proposed = await proposeDeploy(deps, principal, "route_pin", version, { trend });
      return c.json({ ...base, state: "pending_pin" as const, ...proposed }, 202);
    }
    let state: "retired" | "cleared" | "unchanged" = "retired";
    if (body.action === "retire")
      await deps.routeLedger.retire(principal.teamId, need, body.route_id, principal.subject, now);
    else state = (await deps.routeLedger.clear(principal.teamId, need, body.route_id)) ? "cleared" : "unchanged";
    if (state !== "unchanged")
      await deps.auditLog.append([
        {
          id: deps.newId("aud"),
          teamId: principal.teamId,
          actor: principal.subject,
          action: state === "retired" ? "route.retired" : "route.override_cleared",
          subjectType: "route_override",
          subjectId: `${need}:${body.route_id}`,
          metadata: { need_fingerprint: need, route_id: body.route_id, note: body.note ?? null },
          createdAt: now,
        },
      ]);
    return c.json({ ...base, state }, 200);
  },
);
