// GET /v1/metrics: the caller's team's counters and evaluation metrics over a window (default 24h).
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonResponse } from "../../http/openapi";
import { limiterOutages } from "../../http/rate-limits";
import { parseWindow } from "../sweeps/domain";
import { gateSlaMetrics } from "./gate-sla";
import { teamMetrics } from "./metrics";
import type { MetricsNeeds } from "./needs";

const MetricsQuery = z.strictObject({
  window: z
    .string()
    .max(16)
    .refine((w) => parseWindow(w) !== null, "a window like 90m, 24h, 7d or 2w, at most 30d")
    .optional(),
});

const nullableNumber = z.number().nullable();

export const MetricsResponse = z
  .object({
    team_id: z.string(),
    window: z.string(),
    from: z.string(),
    to: z.string(),
    tokens_in: z.number(),
    tokens_out: z.number(),
    gates_by_kind: z.record(z.string(), z.int()),
    policy_soft_gate_count: z.int(),
    policy_hard_gate_count: z.int(),
    auto_approvals: z.int(),
    human_approvals: z.int().meta({
      description: "gates approved or denied by a person (slack, api, cli, web); other outcomes are in gate_outcomes",
    }),
    gate_outcomes: z
      .object({
        approved: z.int(),
        denied: z.int(),
        timed_out: z.int(),
        cancelled: z.int(),
        superseded: z.int(),
        fallback_denied: z.int(),
      })
      .meta({
        description: "decided gates per outcome (approved/denied include the policy's own auto and deny gates)",
      }),
    human_approval_latency_ms: z.object({ p50: nullableNumber, p95: nullableNumber, samples: z.int() }),
    dead_letters: z.object({ open: z.int(), created: z.int() }),
    dlq_count: z.int(),
    dlq_recent: z.array(
      z.object({
        event_id: z.string().nullable(),
        type: z.string().nullable(),
        attempts: z.int(),
        received_at: z.string(),
      }),
    ),
    decisions: z.int(),
    escalation_rate: nullableNumber,
    unknown_failure_class_ratio: nullableNumber,
    missing_metadata_count: z.int(),
    llm_calls_avoided_count: z.int(),
    routing_repeat_accuracy: nullableNumber,
    cross_runtime_continuity: nullableNumber,
    stale_serves: z.int(),
    routing_sessions: z.int(),
    routing_repeats: z.int(),
    routes_served: z.int(),
    cross_runtime_repeats: z.int(),
    mode_ceiling: z.string(),
    rollback_count: z.int(),
    rollback_events: z.array(
      z.object({
        at: z.string(),
        trigger_id: z.unknown(),
        metric: z.unknown(),
        value: z.unknown(),
        threshold: z.unknown(),
        from: z.unknown(),
        to: z.unknown(),
      }),
    ),
    learning_aborted_runs: z.int(),
    gate_ack_sla_breaches: z.int().meta({
      description:
        "gates opened in the window (those a person decides) first answered after their acknowledge SLA, or still unanswered past it (GET /v1/gates/sla)",
    }),
    gate_resolve_sla_breaches: z.int().meta({
      description: "gates opened in the window decided after their resolve SLA, or still open past it",
    }),
    gate_ack_latency_ms: z
      .object({ p50: nullableNumber, p95: nullableNumber, samples: z.int() })
      .meta({ description: "opening to first response (acknowledgement or decision) of the window's answered gates" }),
    limiter_outages: z
      .object({ failed_open: z.int(), failed_closed: z.int() })
      .describe(
        "requests of this team the rate limiter could not count, as seen by the answering isolate since it started: reads, decide and approvals let through (failed_open), writes refused (failed_closed)",
      ),
  })
  .meta({ id: "TeamMetrics" });

export const metricsRoutes = featureApp<MetricsNeeds>().openapi(
  createRoute({
    method: "get",
    path: "/v1/metrics",
    tags: ["metrics"],
    summary: "Counters and evaluation metrics of the caller's team over a window",
    security: bearer,
    middleware: [requireScope("runs:read", "policy:admin")] as const,
    request: { query: MetricsQuery },
    responses: { 200: jsonResponse(MetricsResponse, "the team's metrics"), ...commonErrors },
  }),
  async (c) => {
    const { deps } = c.env;
    const window = c.req.valid("query").window ?? "24h";
    const windowMs = parseWindow(window) as number;
    const teamId = c.get("principal").teamId;
    const now = deps.clock.now();
    const [metrics, sla] = await Promise.all([
      teamMetrics(deps, teamId, window, windowMs, now),
      gateSlaMetrics(deps, teamId, now - windowMs, now),
    ]);
    return c.json({ ...metrics, ...sla, limiter_outages: limiterOutages(teamId) }, 200);
  },
);
