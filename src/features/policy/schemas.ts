// Wire shapes of the policy routes (zod, with OpenAPI examples).
import { z } from "zod";
import { MemrlFailureClass, RunFailureClass } from "../../../contracts/failure-classes";
import { Action, AttemptBucket, MemrlMode, MemrlPolicyProfile } from "../../../contracts/memrl-policy";

const id = z.string().min(1).max(128);

export const DecideBody = z
  .strictObject({
    memrl_mode: MemrlMode.optional(),
    failure_class: z
      .union([MemrlFailureClass, RunFailureClass, z.string().min(1).max(64)])
      .optional()
      .meta({
        description:
          "a MemRL class, or a run-taxonomy class (decided as its MemRL class); anything else is decided fail-closed with a warning",
      }),
    attempt: z.int().min(0).max(1_000_000).optional(),
    max_attempts: z.int().min(-1_000_000).max(1_000_000).optional(),
    attempt_bucket: AttemptBucket.optional(),
    legacy_action: Action.optional(),
    run_id: id.optional(),
    task_id: id.optional(),
  })
  .meta({
    id: "DecideRequest",
    example: { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3, legacy_action: "retry" },
  });

export const DecideResponse = z
  .object({
    decision_id: z.string(),
    requested_mode: MemrlMode,
    memrl_mode: MemrlMode,
    failure_class: z.string().nullable(),
    attempt_bucket: AttemptBucket.nullable(),
    action: Action,
    rule_id: z.string(),
    reason: z.string(),
    selected_action: Action,
    profile: z.object({ team_id: z.string(), version: z.int() }),
    mode_ceiling: MemrlMode.meta({ description: "the team's current mode ceiling (lowered by the rollback matrix)" }),
    warnings: z
      .array(z.string())
      .optional()
      .meta({ description: "a run-taxonomy class that was mapped, or an unknown class (decided fail-closed)" }),
  })
  .meta({
    id: "DecideResponse",
    example: {
      decision_id: "dec_3f1c…",
      requested_mode: "enforce",
      memrl_mode: "enforce",
      failure_class: "vibe_fail",
      attempt_bucket: "middle",
      action: "retry",
      rule_id: "enforce.vibe_fail.middle",
      reason: "enforce rule enforce.vibe_fail.middle (class vibe_fail, bucket middle, priority 100)",
      selected_action: "retry",
      profile: { team_id: "team-a", version: 0 },
      mode_ceiling: "enforce",
    },
  });

export const ProfileAccepted = z
  .object({
    version: z.int(),
    status: z.literal("pending"),
    run_id: z.string().optional(),
    op_id: z.string().optional(),
    gate_id: z.string().optional(),
  })
  .meta({ id: "ProfileAccepted", example: { version: 2, status: "pending" } });

export const ReplayBody = z
  .strictObject({
    profile: MemrlPolicyProfile,
    since: z.union([z.iso.datetime({ offset: true }), z.int().min(0)]).optional(),
  })
  .meta({ id: "ReplayRequest" });

export const ReplayResponse = z
  .object({
    total: z.int(),
    changed: z.int(),
    unchanged: z.int(),
    by_rule: z.array(z.object({ from_rule_id: z.string(), to_rule_id: z.string(), count: z.int() })),
    by_class: z
      .array(z.object({ failure_class: z.string(), decisions: z.int(), changes: z.int() }))
      .describe(
        "per failure class of the logged inputs (`unknown` for a string outside the seven, `missing` for none)",
      ),
    examples: z.array(
      z.object({
        decision_id: z.string(),
        inputs: z.record(z.string(), z.unknown()),
        before: z.object({ rule_id: z.string(), action: z.string(), selected_action: z.string() }),
        after: z.object({ rule_id: z.string(), action: z.string(), selected_action: z.string() }),
      }),
    ),
    hours_read: z
      .array(z.string())
      .describe("the UTC hours of the decision log (R2 objects) this replay read, oldest first"),
  })
  .meta({
    id: "ReplayResponse",
    example: {
      total: 120,
      changed: 7,
      unchanged: 113,
      by_rule: [{ from_rule_id: "enforce.vibe_fail.middle", to_rule_id: "enforce.fallback", count: 7 }],
      by_class: [{ failure_class: "vibe_fail", decisions: 40, changes: 7 }],
      examples: [],
      hours_read: ["2026-11-27T13:00:00Z", "2026-11-27T14:00:00Z"],
    },
  });

export const ModeCeilingBody = z
  .strictObject({ ceiling: MemrlMode })
  .meta({ id: "ModeCeilingRequest", example: { ceiling: "enforce" } });

export const ModeCeilingView = z
  .object({
    ceiling: MemrlMode,
    reason: z.string().optional().meta({ description: "why: the rollback trigger that lowered it, or the deploy" }),
    set_at: z.int().optional(),
  })
  .meta({
    id: "ModeCeiling",
    example: {
      ceiling: "observe",
      reason: "rollback trigger escalation-rate: escalation_rate > 0.35 (value 0.5, 12 decisions in 24h)",
      set_at: 1767225600000,
    },
  });

export const ModeCeilingAccepted = z
  .object({
    version: z.int(),
    status: z.literal("pending"),
    ceiling: MemrlMode,
    run_id: z.string(),
    op_id: z.string(),
    gate_id: z.string(),
  })
  .meta({
    id: "ModeCeilingAccepted",
    example: {
      version: 1,
      status: "pending",
      ceiling: "enforce",
      run_id: "ctl_…",
      op_id: "deploy-ceiling-v1",
      gate_id: "gate_…",
    },
  });
