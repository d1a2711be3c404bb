// The approver's inbox: GET /v1/gates (team-wide open gates, oldest first) and POST /v1/gates/:gate_id/decision.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { APPROVAL_DECISIONS, DIGEST } from "../../../contracts/approval-action.v1";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { AuditLogStore } from "../../ports/audit-log";
import type { RunIndex } from "../../ports/run-index";
import { actorOf, callRun, runErrors } from "../runs";
import { DEPLOY_TARGET_SPECS } from "./deploy-targets";
import type { GatesNeeds } from "./index";
import { GATE_OUTCOMES } from "./outcome";
import { ApprovalResponse, assertPersonDecides, CHANNEL_HEADER, CHANNEL_HEADER_DOC, channelHint } from "./schemas";

/** What the inbox routes need: the gate routes' needs, the team-wide gate index and the audit log (acknowledgements). */
export type GateInboxNeeds = GatesNeeds & {
  runIndex: Pick<RunIndex, "listGates" | "gate" | "ackGate">;
  auditLog: AuditLogStore;
  newId: (prefix: string) => string;
};

const errors = { ...commonErrors, ...runErrors };

export const GateListQuery = z.object({
  status: z
    .enum(["open", "pending", "approved", "auto_allowed", "denied", "aborted", "skipped"])
    .default("open")
    .meta({ description: "open (= pending, the default) or a decided status" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const GateListItem = z.object({
  gate_id: z.string(),
  run_id: z.string(),
  op_id: z.string(),
  policy_key: z.string(),
  kind: z.enum(["auto", "soft", "hard", "deny"]),
  status: z.string(),
  opened_by: z.string(),
  opened_at: z.int(),
  age_ms: z.int().meta({ description: "how long the gate has been open (now − opened_at)" }),
  deadline_at: z.int().nullable().meta({ description: "when a soft gate allows itself; null for hard gates" }),
  decided_by: z.string().nullable(),
  decided_at: z.int().nullable(),
  outcome: z.enum(GATE_OUTCOMES).nullable().meta({ description: "how the gate ended; null while pending" }),
});
export const GateList = z.object({ gates: z.array(GateListItem) }).meta({
  id: "GateList",
  example: {
    gates: [
      {
        gate_id: "gate_9a3f…",
        run_id: "run_5b0c…",
        op_id: "op-77",
        policy_key: "wrong_value",
        kind: "hard",
        status: "pending",
        opened_by: "worker-7",
        opened_at: 1767225600000,
        age_ms: 42000,
        deadline_at: null,
        decided_by: null,
        decided_at: null,
        outcome: null,
      },
    ],
  },
});

export const GateDecisionParams = z.object({ gate_id: z.string().min(1).max(128) });
export const GateDecisionBody = z
  .strictObject({
    decision: z.enum(APPROVAL_DECISIONS).meta({
      description: "approve_retry | approve_skip | approve_abort | deny (auto_allow is reserved for the timer)",
    }),
    note: z.string().max(2000).optional().meta({ description: "why; required for hard gates" }),
    digest: DIGEST.optional().meta({ description: "the gate content digest you saw; a different one answers 409" }),
  })
  .meta({ id: "GateDecision", example: { decision: "approve_retry", note: "value checked against the invoice" } });

export const GateAckResponse = z
  .object({
    gate_id: z.string(),
    run_id: z.string(),
    status: z.string(),
    acked_by: z.string(),
    acked_at: z.int(),
  })
  .meta({
    id: "GateAck",
    example: {
      gate_id: "gate_9a3f…",
      run_id: "run_5b0c…",
      status: "pending",
      acked_by: "alice",
      acked_at: 1767225660000,
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
      const rows = await deps.runIndex.listGates(principal.teamId, {
        status: q.status === "open" ? "pending" : q.status,
        limit: q.limit,
      });
      const gates = rows
        .filter((g) => principal.runId === undefined || g.run_id === principal.runId)
        .map((g) => ({
          ...g,
          kind: g.kind as z.infer<typeof GateListItem>["kind"],
          outcome: g.outcome as z.infer<typeof GateListItem>["outcome"],
          age_ms: Math.max(0, now - g.opened_at),
        }));
      return c.json({ gates }, 200);
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
      const reply = await callRun(deps.runs, gate.run_id, "decide_gate", {
        actor: actorOf(principal),
        op_id: gate.op_id,
        policy_key: gate.policy_key,
        decision: body.decision,
        note: body.note ?? null,
        ...(body.digest ? { digest: body.digest } : {}),
        ...(channel ? { channel } : {}),
      });
      for (const a of reply.activated ?? []) DEPLOY_TARGET_SPECS[a.target].invalidate(deps, principal.teamId);
      return c.json(reply.value, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/gates/{gate_id}/ack",
      tags: ["gates"],
      summary: "Acknowledge an open gate: you are on it; its escalation pings stop (the first acknowledgement stays)",
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
      const now = deps.clock.now();
      const gate = await deps.runIndex.ackGate(principal.teamId, gate_id, principal.subject, now);
      if (!gate || (principal.runId !== undefined && gate.run_id !== principal.runId))
        throw new AppFailure({ code: "not_found", message: `gate ${gate_id} not found for this team` });
      if (gate.acked_by === null || gate.acked_at === null)
        throw new AppFailure({
          code: "conflict",
          message: `gate ${gate_id} was already decided (${gate.status}): there is nothing to acknowledge`,
        });
      if (gate.acked_by === principal.subject && gate.acked_at === now)
        await deps.auditLog.append([
          {
            id: deps.newId("aud"),
            teamId: principal.teamId,
            actor: principal.subject,
            action: "gate.acknowledged",
            subjectType: "gate",
            subjectId: gate_id,
            metadata: { run_id: gate.run_id, policy_key: gate.policy_key, waited_ms: now - gate.opened_at },
            createdAt: now,
          },
        ]);
      return c.json(
        { gate_id, run_id: gate.run_id, status: gate.status, acked_by: gate.acked_by, acked_at: gate.acked_at },
        200,
      );
    },
  );
