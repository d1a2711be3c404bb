// Wire shapes of the learning routes: events accepted, the policy-memory snapshot, routing rank (zod + examples).
import { z } from "zod";

export const EventAccepted = z
  .object({
    event_id: z.string(),
    status: z.literal("queued"),
    /** task.failed / task.blocked: memories found for the reason bucket (best-effort, empty when none came in time) */
    hints: z
      .array(
        z.object({ id: z.string(), namespace: z.string(), class: z.string(), text: z.string(), score: z.number() }),
      )
      .optional(),
  })
  .meta({ id: "EventAccepted", example: { event_id: "evt-7f3a-0001", status: "queued" } });

const RetryAdjustment = z.object({ backoff_multiplier: z.number(), max_attempts_override: z.int().nullable() });

export const PolicyMemorySnapshot = z
  .object({
    version: z.literal("1.0.0"),
    team_id: z.string(),
    taken_at: z.string(),
    last_updated: z.string().nullable(),
    entries: z.array(
      z.object({
        entry_id: z.string(),
        skill_name: z.string(),
        context_hash: z.string(),
        success_count: z.int(),
        failure_count: z.int(),
        avg_cost_units: z.number(),
        avg_steps: z.number(),
        last_used: z.string(),
        created_at: z.string(),
        decay_factor: z.number(),
        base_weight: z.number(),
        effective_weight: z.number(),
        archived: z.boolean(),
        learning_stopped: z.boolean(),
      }),
    ),
    routing_weights: z.record(z.string(), z.number()),
    retry_adjustments: z.record(z.string(), RetryAdjustment),
    reset: z.object({ code: z.literal("DTL-STRAT-001"), reason: z.string() }).nullable(),
    warnings: z.array(z.string()),
  })
  .meta({
    id: "PolicyMemorySnapshot",
    example: {
      version: "1.0.0",
      team_id: "team-a",
      taken_at: "2026-11-22T10:00:00.000Z",
      last_updated: "2026-11-21T18:30:00.000Z",
      entries: [
        {
          entry_id: "pme_5b1e…",
          skill_name: "code.test",
          context_hash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
          success_count: 7,
          failure_count: 2,
          avg_cost_units: 1830.5,
          avg_steps: 5.2,
          last_used: "2026-11-21T18:30:00.000Z",
          created_at: "2026-10-02T09:12:00.000Z",
          decay_factor: 0.966,
          base_weight: 1.454545,
          effective_weight: 1.405091,
          archived: false,
          learning_stopped: false,
        },
      ],
      routing_weights: { "code.test": 1.405091 },
      retry_adjustments: { vibe_fail: { backoff_multiplier: 1.5, max_attempts_override: 4 } },
      reset: null,
      warnings: [],
    },
  });

export const RankBody = z
  .strictObject({
    skills: z.array(z.string().min(1).max(128)).min(1).max(200),
    /** the query type: a string, or any JSON value (hashed canonically); omitted = the default context */
    context: z.union([z.string().max(256), z.record(z.string(), z.unknown())]).optional(),
  })
  .meta({ id: "RoutingRankRequest", example: { skills: ["code.edit", "code.test", "web.search"] } });

export const RankResponse = z
  .object({
    ranked: z.array(
      z.object({
        skill: z.string(),
        weight: z.number(),
        source: z.enum(["learned", "cold_start"]),
        archived: z.boolean(),
      }),
    ),
    context_hash: z.string(),
    snapshot_taken_at: z.string(),
  })
  .meta({
    id: "RoutingRankResponse",
    example: {
      ranked: [
        { skill: "code.test", weight: 1.405091, source: "learned", archived: false },
        { skill: "web.search", weight: 1, source: "cold_start", archived: false },
        { skill: "code.edit", weight: 0.62, source: "learned", archived: false },
      ],
      context_hash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      snapshot_taken_at: "2026-11-22T10:00:00.000Z",
    },
  });

export const EntryParams = z.object({
  entry_id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[!-~]+$/, "printable ASCII without spaces"),
});

export const BreakerResetResponse = z
  .object({
    entry_id: z.string(),
    skill_name: z.string(),
    context_hash: z.string(),
    learning_stopped: z.literal(false),
    ledger_seq: z.int(),
    reset_at: z.string(),
    audit_id: z.string(),
  })
  .meta({ id: "BreakerReset" });
