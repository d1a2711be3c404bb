// Gates and approvals: open/read a run's gates, decide them (ApprovalAction v1), read and propose team gate rules.
import { createRoute } from "@hono/zod-openapi";
import { ApprovalActionV1 } from "../../../contracts/approval-action.v1";
import approvalExample from "../../../contracts/approval-action.v1.example.json";
import { AppFailure, orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, ErrorEnvelope, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { actorOf, callRun, runErrors } from "../runs";
import { assertTeamWideProposer, proposeDeploy } from "./deploy";
import type { GatesNeeds } from "./index";
import { diffGateRules, mergeGateRules } from "./rule-diff";
import { GateRuleSet } from "./rules";
import {
  ApprovalResponse,
  assertPersonDecides,
  CHANNEL_HEADER,
  CHANNEL_HEADER_DOC,
  channelHint,
  DeployAccepted,
  GateParams,
  GateRulesResponse,
  GateView,
  OpenGateBody,
  OpenGateResponse,
  RunParams,
} from "./schemas";
import { decideGate, openGate } from "./use-cases";

const errors = { ...commonErrors, ...runErrors };
/** a rule change refused by evaluation_trend_regression_gate (docs/learning.md) */
const regression409 = {
  description:
    "regression: the team's candidate window regressed beyond a threshold (details.trend holds the comparison), nothing stored; or conflict on the control run",
  content: { "application/json": { schema: ErrorEnvelope } },
};

export const gatesRoutes = featureApp<GatesNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/gates",
      tags: ["gates"],
      summary:
        "Ask whether a risky step may go ahead: auto, soft (timer), hard (human) or deny; idempotent by op_id + policy_key",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: { params: RunParams, body: jsonBody(OpenGateBody) },
      responses: { 200: jsonResponse(OpenGateResponse, "the gate: allowed, pending or denied"), ...errors },
    }),
    async (c) => {
      const { run_id } = c.req.valid("param");
      return c.json(await openGate(c.env.deps.runs, c.get("principal"), run_id, c.req.valid("json")), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/runs/{run_id}/gates/{gate_id}",
      tags: ["gates"],
      summary: "A gate and its decision",
      security: bearer,
      middleware: [requireScope("runs:read", "runs:write", "approvals:decide")] as const,
      request: { params: GateParams },
      responses: { 200: jsonResponse(GateView, "the gate"), ...errors },
    }),
    async (c) => {
      const { run_id, gate_id } = c.req.valid("param");
      const reply = await callRun(c.env.deps.runs, run_id, "get_gate", { actor: actorOf(c.get("principal")), gate_id });
      return c.json(reply.value, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/approvals",
      tags: ["gates"],
      summary:
        "Decide a gate (ApprovalAction v1). Before the gate is armed the decision is kept (202) and applied when it opens",
      description:
        "An approval before the gate is armed needs an announced op_id and the gate content digest; it applies only to " +
        "a gate with that digest. An enforce promotion's policy_deploy gate lists `acks_required` in its context: " +
        "approve_retry needs `ack:<class>` in the note for each, else 400 naming the missing ones. " +
        CHANNEL_HEADER_DOC,
      security: bearer,
      middleware: [requireScope("approvals:decide")] as const,
      request: { body: jsonBody(ApprovalActionV1, approvalExample) },
      responses: {
        200: jsonResponse(ApprovalResponse, "the decided gate (repeating the same decision changes nothing)"),
        202: jsonResponse(ApprovalResponse, "kept until the gate is armed"),
        ...errors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const body = c.req.valid("json");
      const channel = channelHint(c.req.header(CHANNEL_HEADER));
      assertPersonDecides(principal.subject);
      const reply = await decideGate(deps, principal, body, channel);
      const status = reply.value.status === "not_armed" ? 202 : 200;
      return c.json(reply.value, status);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/policy/gates",
      tags: ["gates"],
      summary: "The team's active gate rules (version 0 is the default matrix)",
      security: bearer,
      middleware: [requireScope("policy:decide", "policy:admin", "approvals:decide")] as const,
      responses: {
        200: jsonResponse(GateRulesResponse, "rules in evaluation order; an unmatched policy_key is hard"),
        ...commonErrors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const rules = await deps.gateRules.get(c.get("principal").teamId, deps.clock.now());
      return c.json({ version: rules.version, rules: rules.rules }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "patch",
      path: "/v1/policy/gates",
      tags: ["gates"],
      summary:
        "Merge gate rules: the body's rules replace the active rules of each policy_key they name; other keys stay. Pending behind a policy_deploy hard gate",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(GateRuleSet) },
      responses: {
        202: jsonResponse(
          DeployAccepted,
          "the merged set stored as pending, with its diff; approve the gate to activate",
        ),
        ...errors,
        409: regression409,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      assertTeamWideProposer(principal);
      const now = deps.clock.now();
      const active = await deps.gateRules.get(principal.teamId, now);
      const merged = { rules: mergeGateRules(active.rules, c.req.valid("json").rules) };
      const checked = GateRuleSet.safeParse(merged);
      if (!checked.success) {
        const message = `the merged rule set is invalid: ${checked.error.issues[0]?.message ?? "see issues"}`;
        throw new AppFailure({ code: "validation_failed", message, issues: [{ path: "rules", message }] });
      }
      const diff = diffGateRules(active.rules, merged.rules);
      // a rule change moves what gates a run: it passes the trend gate before anything is stored (409 regression)
      const { trend } = orFail(await deps.trendGate(principal.teamId, now));
      const version = await deps.gateRuleStore.addPending(principal.teamId, checked.data, now);
      return c.json({ ...(await proposeDeploy(deps, principal, "gates", version, { diff, trend })), diff }, 202);
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/policy/gates",
      tags: ["gates"],
      summary:
        "Replace the team's gate rules (PUT replaces the whole set: a key you leave out falls back to hard; PATCH merges): pending behind a policy_deploy hard gate",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(GateRuleSet) },
      responses: {
        202: jsonResponse(DeployAccepted, "stored as pending; approve the gate to activate"),
        ...errors,
        409: regression409,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const now = deps.clock.now();
      assertTeamWideProposer(principal);
      const proposed = c.req.valid("json");
      const active = await deps.gateRules.get(principal.teamId, now);
      const diff = diffGateRules(active.rules, proposed.rules);
      const { trend } = orFail(await deps.trendGate(principal.teamId, now));
      const version = await deps.gateRuleStore.addPending(principal.teamId, proposed, now);
      return c.json({ ...(await proposeDeploy(deps, principal, "gates", version, { diff, trend })), diff }, 202);
    },
  );
