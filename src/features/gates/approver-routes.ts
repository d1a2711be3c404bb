// GET/PUT /v1/policy/approvers (policy:admin): the team's deploy approvers. Once a roster is set only its members decide
// the team's deploys; a new roster is itself a deploy, decided by a member of the current one (or, before any roster
// exists, by any second person).
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { WireId } from "../../../contracts/wire-id";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { RunsService } from "../runs";
import { assertTeamWideProposer, proposeDeploy } from "./deploy";
import { DeployAccepted } from "./schemas";
import type { DeployApproverStore } from "./store/deploy-approvers-port";

export type ApproverNeeds = {
  runs: RunsService;
  deployApproverStore: DeployApproverStore;
  clock: { now(): number };
};

export const MAX_DEPLOY_APPROVERS = 50;

const ApproversBody = z
  .strictObject({
    approvers: z
      .array(WireId)
      .min(2)
      .max(MAX_DEPLOY_APPROVERS)
      .refine((a) => new Set(a).size === a.length, { message: "each approver once" })
      .describe("the whole new roster: at least two subjects, so that a deploy always has a second person"),
  })
  .meta({ id: "DeployApproversRequest", example: { approvers: ["alice", "bob"] } });
const ApproversView = z.object({ team_id: z.string(), approvers: z.array(z.string()) }).meta({ id: "DeployApprovers" });
const ApproversPending = DeployAccepted.omit({ diff: true })
  .extend({ approvers: z.array(z.string()) })
  .meta({ id: "DeployApproversPending" });

export const approverRoutes = featureApp<ApproverNeeds>()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/policy/approvers",
      tags: ["policy"],
      summary: "The team's deploy approvers (empty: none set, any second person decides deploys)",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      responses: { 200: jsonResponse(ApproversView, "the roster"), ...commonErrors },
    }),
    async (c) => {
      const teamId = c.get("principal").teamId;
      return c.json({ team_id: teamId, approvers: await c.env.deps.deployApproverStore.forTeam(teamId) }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/policy/approvers",
      tags: ["policy"],
      summary:
        "Propose a new deploy-approver roster: pending behind a policy_deploy hard gate that a member of the current roster (another person) decides",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(ApproversBody) },
      responses: { 202: jsonResponse(ApproversPending, "pending; approve the gate to apply"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      assertTeamWideProposer(principal);
      const approvers = [...c.req.valid("json").approvers].sort();
      const version = await deps.deployApproverStore.addRequest(
        principal.teamId,
        approvers,
        principal.subject,
        deps.clock.now(),
      );
      const proposed = await proposeDeploy(deps, principal, "approvers", version, { approvers });
      return c.json({ ...proposed, approvers }, 202);
    },
  );
