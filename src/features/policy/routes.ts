// /v1/policy: decide, read and propose the MemRL profile, replay logged decisions under a candidate.

import { createRoute } from "@hono/zod-openapi";
import { MemrlPolicyProfile } from "../../../contracts/memrl-policy";
import { orFail } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, ErrorEnvelope, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { assertTeamWideProposer, proposeDeploy } from "../gates";
import { decidePolicy } from "./decide";
import { readDecisions } from "./decision-log-reader";
import { DEFAULT_PROFILE } from "./default-profile";
import type { PolicyNeeds } from "./index";
import { promotionEvidence } from "./promotion-evidence";
import { replayDecisions } from "./replay";
import { decideDepsOf } from "./run-snapshot";
import {
  DecideBody,
  DecideResponse,
  ModeCeilingAccepted,
  ModeCeilingBody,
  ModeCeilingView,
  ProfileAccepted,
  ReplayBody,
  ReplayResponse,
} from "./schemas";

const REPLAY_LIMIT = 10_000;
const REPLAY_DEFAULT_WINDOW_MS = 7 * 86_400_000;
/** evaluation_trend_regression_gate's refusal of a promotion to enforce (docs/learning.md) */
const regression409 = {
  description:
    "regression: promoting to enforce, the candidate window regressed beyond a threshold (details.trend holds the comparison)",
  content: { "application/json": { schema: ErrorEnvelope } },
};
/** a promotion to enforce whose profile fails a conformance or parity case (docs/learning.md) */
const checks422 = {
  description:
    "rejected: promoting to enforce, the profile fails built-in MemRL conformance or parity cases (details.rule_ids lists them: conformance.<case>, parity.<decision_id>); nothing stored",
  content: { "application/json": { schema: ErrorEnvelope } },
};
/** the refusals of a proposal that promotes to enforce (a profile or a raised ceiling), before anything is stored */
const promotionRefusals = { 409: regression409, 422: checks422 };

export const policyRoutes = featureApp<PolicyNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/policy/decide",
      tags: ["policy"],
      summary: "Retry or escalate a failed step (deterministic MemRL decision)",
      security: bearer,
      middleware: [requireScope("policy:decide")] as const,
      request: { body: jsonBody(DecideBody) },
      responses: { 200: jsonResponse(DecideResponse, "the decision, logged under decision_id"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const result = await decidePolicy(decideDepsOf(deps), c.get("principal"), c.req.valid("json"), deps.clock.now());
      return c.json(orFail(result), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/policy/profile",
      tags: ["policy"],
      summary: "The team's active MemRL profile (valid against contracts/memrl-policy.schema.json)",
      security: bearer,
      middleware: [requireScope("policy:decide", "policy:admin")] as const,
      responses: {
        200: {
          ...jsonResponse(MemrlPolicyProfile, "the active profile; its version is in the X-Profile-Version header"),
          headers: {
            "X-Profile-Version": { schema: { type: "integer" } },
            "X-Mode-Ceiling": { schema: { type: "string" }, description: "off | observe | enforce" },
            "X-Mode-Ceiling-Reason": {
              schema: { type: "string" },
              description: "why the ceiling is set: after a demotion, the rollback trigger with its value",
            },
          },
        },
        ...commonErrors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const teamId = c.get("principal").teamId;
      const { compiled, ceiling } = await deps.policies.get(teamId, deps.clock.now());
      c.header("X-Profile-Version", String(compiled.version));
      // the mode ceiling and, after a demotion, the trigger that lowered it (the profile body stays schema-valid)
      c.header("X-Mode-Ceiling", ceiling);
      const why = await deps.policyStore.modeCeilingReason(teamId);
      if (why) c.header("X-Mode-Ceiling-Reason", why.reason.replaceAll(/[^\x20-\x7e]/g, "?"));
      return c.json(compiled.profile, 200);
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/policy/profile",
      tags: ["policy"],
      summary: "Propose a new MemRL profile: pending behind a policy_deploy hard gate on the team's control run",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(MemrlPolicyProfile, DEFAULT_PROFILE) },
      responses: {
        202: jsonResponse(
          ProfileAccepted,
          "stored as pending; approve the gate to activate (an enforce promotion's note must carry ack:<class> for each class in the gate's acks_required)",
        ),
        ...promotionRefusals,
        ...commonErrors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      assertTeamWideProposer(principal);
      const profile = c.req.valid("json");
      const now = deps.clock.now();
      // promotion to enforce carries replay, parity, conformance and trend evidence to its gate, or is refused
      // (422 failing cases, 409 regression) before anything is stored
      const evidence =
        profile.default_mode === "enforce"
          ? orFail(await promotionEvidence(deps, principal.teamId, profile, now, undefined))
          : undefined;
      const version = await deps.policyStore.addPendingProfile(principal.teamId, profile, principal.subject, now);
      // active only once the policy_deploy hard gate on the team's control run is approved (POST /v1/approvals)
      return c.json(await proposeDeploy(deps, principal, "profile", version, evidence), 202);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/policy/replay",
      tags: ["policy"],
      summary: "How a candidate profile would have decided the logged decisions",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(ReplayBody, { profile: DEFAULT_PROFILE, since: "2026-11-01T00:00:00Z" }) },
      responses: { 200: jsonResponse(ReplayResponse, "counts, changes by rule, examples"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const { profile, since } = c.req.valid("json");
      const now = deps.clock.now();
      const sinceMs =
        since === undefined ? now - REPLAY_DEFAULT_WINDOW_MS : typeof since === "number" ? since : Date.parse(since);
      // the team comes from the verified token only: the log's keys are built from it
      const read = await readDecisions(deps, c.get("principal").teamId, sinceMs, REPLAY_LIMIT);
      return c.json({ ...replayDecisions(profile, read.decisions), hours_read: read.hours_read }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/policy/mode-ceiling",
      tags: ["policy"],
      summary: "The team's MemRL mode ceiling (lowered by the rollback matrix)",
      security: bearer,
      middleware: [requireScope("policy:decide", "policy:admin")] as const,
      responses: { 200: jsonResponse(ModeCeilingView, "the ceiling"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const teamId = c.get("principal").teamId;
      const { ceiling } = await deps.policies.get(teamId, deps.clock.now());
      const why = await deps.policyStore.modeCeilingReason(teamId);
      return c.json({ ceiling, ...(why ? { reason: why.reason, set_at: why.updated_at } : {}) }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/policy/mode-ceiling",
      tags: ["policy"],
      summary: "Set the team's mode ceiling (e.g. raise it after a rollback): pending behind a policy_deploy hard gate",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(ModeCeilingBody) },
      responses: {
        202: jsonResponse(ModeCeilingAccepted, "pending; approve the gate to apply"),
        ...promotionRefusals,
        ...commonErrors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const { ceiling } = c.req.valid("json");
      assertTeamWideProposer(principal);
      const now = deps.clock.now();
      // raising the ceiling to enforce is a promotion too: the active profile replayed under the raised ceiling
      let evidence: Record<string, unknown> | undefined;
      if (ceiling === "enforce") {
        const { compiled } = await deps.policies.get(principal.teamId, now);
        evidence = orFail(await promotionEvidence(deps, principal.teamId, compiled, now, "enforce"));
      }
      const version = await deps.policyStore.addCeilingRequest(principal.teamId, ceiling, principal.subject, now);
      // applied only once the policy_deploy hard gate on the team's control run is approved (POST /v1/approvals)
      return c.json({ ...(await proposeDeploy(deps, principal, "ceiling", version, evidence)), ceiling }, 202);
    },
  );
