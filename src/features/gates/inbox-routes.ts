// The approver's inbox: GET /v1/gates (team-wide open gates, oldest first) and POST /v1/gates/:gate_id/decision.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { APPROVAL_DECISIONS, DIGEST, REVIEW_PATCH } from "../../../contracts/approval-action.v1";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import { actorOf, runErrors } from "../runs";
import type { RunIndex } from "../runs/domain";
import { type AckNeeds, acknowledgeGate } from "./ack";
import { type AckAnnounceNeeds, announceAcknowledgement } from "./ack-announce";
import { GateList, GateListQuery } from "./inbox-schemas";
import type { GatesNeeds } from "./index";
import { ApprovalResponse, assertPersonDecides, CHANNEL_HEADER, CHANNEL_HEADER_DOC, channelHint } from "./schemas";
import { decideGate, listGates } from "./use-cases";

/** What the inbox routes need: the gate routes' needs, the team-wide gate index, and what acknowledging needs. */
export type GateInboxNeeds = GatesNeeds &
  AckNeeds &
  AckAnnounceNeeds & { runIndex: Pick<RunIndex, "listGates" | "gate"> };

const errors = { ...commonErrors, ...runErrors };

export const GateDecisionParams = z.object({ gate_id: z.string().min(1).max(128) });
export const GateDecisionBody = z
  .strictObject({
    decision: z.enum(APPROVAL_DECISIONS).meta({
      description: "approve_retry | approve_skip | approve_abort | deny (auto_allow is reserved for the timer)",
    }),
    note: z.string().max(2000).optional().meta({ description: "why; required for hard gates" }),
    digest: DIGEST.optional().meta({ description: "the gate content digest you saw; a different one answers 409" }),
    patch: REVIEW_PATCH.optional().meta({
      description:
        "dead_letter_review only, with approve_retry and digest: a JSON merge patch to the order's input_json",
    }),
  })
  .meta({ id: "GateDecision", example: { decision: "approve_retry", note: "value checked against the invoice" } });

export const GateAckResponse = z
  .object({
    gate_id: z.string(),
    run_id: z.string(),
    status: z.string(),
    acked_by: z.string(),
    acked_at: z.int(),
    resolve_due_at: z
      .int()
      .nullable()
      .meta({ description: "when the gate must be decided (its resolve SLA, GET /v1/gates/sla); pings resume then" }),
  })
  .meta({
    id: "GateAck",
    example: {
      gate_id: "gate_9a3f…",
      run_id: "run_5b0c…",
      status: "pending",
      acked_by: "alice",
      acked_at: 1767225660000,
      resolve_due_at: 1767229200000,
    },
  });

export const gateInboxRoutes = featureApp<GateInboxNeeds>()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/gates",
      tags: ["gates"],
      summary: "The team's gates by status (default open), oldest first: run, op, policy key, kind, age, deadline",
      description:
        "Read from the D1 gate index, which the run objects write a few " +
        "milliseconds after a gate opens or is decided.",
      security: bearer,
      middleware: [requireScope("runs:read", "approvals:decide")] as const,
      request: { query: GateListQuery },
      responses: { 200: jsonResponse(GateList, "gates, oldest first"), ...commonErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const q = c.req.valid("query");
      const now = deps.clock.now();
      return c.json(await listGates(deps.runIndex, principal, q, now), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/gates/{gate_id}/decision",
      tags: ["gates"],
      summary: "Decide a gate by its gate_id (same rules as POST /v1/approvals; note required for hard gates)",
      description:
        "Nobody decides a gate they opened; repeating the same decision changes nothing; " +
        `a decided gate answers 409. ${CHANNEL_HEADER_DOC}`,
      security: bearer,
      middleware: [requireScope("approvals:decide")] as const,
      request: { params: GateDecisionParams, body: jsonBody(GateDecisionBody) },
      responses: { 200: jsonResponse(ApprovalResponse, "the decided gate"), ...errors },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const { gate_id } = c.req.valid("param");
      const body = c.req.valid("json");
      const channel = channelHint(c.req.header(CHANNEL_HEADER));
      assertPersonDecides(principal.subject);
      const gate = await deps.runIndex.gate(principal.teamId, gate_id);
      if (!gate || (principal.runId !== undefined && gate.run_id !== principal.runId))
        throw new AppFailure({ code: "not_found", message: `gate ${gate_id} not found for this team` });
      const reply = await decideGate(
        deps,
        principal,
        { ...body, run_id: gate.run_id, op_id: gate.op_id, policy_key: gate.policy_key },
        channel,
      );
      return c.json(reply.value, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/gates/{gate_id}/ack",
      tags: ["gates"],
      summary:
        "Acknowledge an open gate: you are on it; its escalation pings stop until its resolve SLA is due (the first acknowledgement stays)",
      description:
        "Repeating it (by anyone) answers the first acknowledgement; a decided gate answers 409. " +
        "Recorded in the audit log (gate.acknowledged).",
      security: bearer,
      middleware: [requireScope("approvals:decide")] as const,
      request: { params: GateDecisionParams },
      responses: { 200: jsonResponse(GateAckResponse, "the gate and who acknowledged it, when"), ...errors },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const { gate_id } = c.req.valid("param");
      assertPersonDecides(principal.subject);
      const who = {
        teamId: principal.teamId,
        subject: principal.subject,
        channel: channelHint(c.req.header(CHANNEL_HEADER)) ?? "api",
        ...(principal.runId !== undefined ? { runId: principal.runId } : {}),
      };
      const acked = await acknowledgeGate(deps, who, gate_id, deps.clock.now());
      if (!acked.ok) throw new AppFailure(acked.error);
      // the gate's Slack card shows the acknowledgement (the slack feature consumes the event; no import of it here)
      if (acked.value.first)
        await announceAcknowledgement(deps, actorOf(principal), who.teamId, { ...acked.value, channel: who.channel });
      const { first: _first, ...answer } = acked.value;
      return c.json(answer, 200);
    },
  );
