// MemRL policy profile: the AgentOps contract shape (schema_version 1), plus Warden's semantic checks.
import { z } from "zod";

export const MEMRL_MODES = ["off", "observe", "enforce"] as const;
export const FAILURE_CLASSES = [
  "pre_mortem_fail",
  "crank_blocked",
  "crank_partial",
  "vibe_fail",
  "phase_timeout",
  "phase_stall",
  "phase_exit_error",
] as const;
export const ATTEMPT_BUCKETS = ["initial", "middle", "final", "overflow"] as const;
export const ACTIONS = ["retry", "escalate"] as const;

export const MemrlMode = z.enum(MEMRL_MODES);
export const FailureClass = z.enum(FAILURE_CLASSES);
export const AttemptBucket = z.enum(ATTEMPT_BUCKETS);
export const Action = z.enum(ACTIONS);

export type MemrlMode = z.infer<typeof MemrlMode>;
export type FailureClass = z.infer<typeof FailureClass>;
export type AttemptBucket = z.infer<typeof AttemptBucket>;
export type Action = z.infer<typeof Action>;

const nonEmpty = z.string().min(1);

export const PolicyRule = z.strictObject({
  rule_id: nonEmpty,
  memrl_mode: MemrlMode,
  failure_class: z.enum(["*", ...FAILURE_CLASSES]),
  attempt_bucket: z.enum(["*", ...ATTEMPT_BUCKETS]),
  action: Action,
  priority: z.int().min(0),
});
export type PolicyRule = z.infer<typeof PolicyRule>;

export const RollbackTrigger = z.strictObject({
  trigger_id: nonEmpty,
  metric: nonEmpty,
  metric_source_command: nonEmpty,
  lookback_window: nonEmpty,
  min_sample_size: z.int().min(1),
  threshold: nonEmpty,
  operator_action: nonEmpty,
  verification_command: nonEmpty,
});
export type RollbackTrigger = z.infer<typeof RollbackTrigger>;

export const MemrlPolicyProfile = z
  .strictObject({
    schema_version: z.literal(1),
    default_mode: MemrlMode,
    unknown_failure_class_action: Action,
    missing_metadata_action: Action,
    tie_break_rules: z.array(nonEmpty).min(1),
    rules: z.array(PolicyRule).min(1),
    rollback_matrix: z.array(RollbackTrigger).min(1),
  })
  .superRefine((profile, ctx) => {
    const seenRules = new Map<string, number>();
    profile.rules.forEach((rule, i) => {
      const first = seenRules.get(rule.rule_id);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["rules", i, "rule_id"],
          message: `duplicate rule_id "${rule.rule_id}" (first at rules.${first})`,
        });
      } else seenRules.set(rule.rule_id, i);
    });
    const seenTriggers = new Set<string>();
    profile.rollback_matrix.forEach((trigger, i) => {
      if (seenTriggers.has(trigger.trigger_id)) {
        ctx.addIssue({
          code: "custom",
          path: ["rollback_matrix", i, "trigger_id"],
          message: `duplicate trigger_id "${trigger.trigger_id}"`,
        });
      }
      seenTriggers.add(trigger.trigger_id);
    });
  })
  .meta({
    id: "MemrlPolicyProfile",
    title: "MemRL Policy Package",
    description: "Deterministic MemRL policy profile: memrl_mode × failure_class × attempt_bucket → action.",
  });
export type MemrlPolicyProfile = z.infer<typeof MemrlPolicyProfile>;
