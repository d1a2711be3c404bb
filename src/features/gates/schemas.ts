// Wire shapes of the gate and approval routes (zod, with OpenAPI examples).
import { z } from "zod";
import { PolicyKey } from "./rules";

const id = z.string().min(1).max(128);
/** largest gate context (serialized JSON) */
export const MAX_CONTEXT_BYTES = 16 * 1024;

export const RunParams = z.object({ run_id: id });
export const GateParams = z.object({ run_id: id, gate_id: id });

/** A gate as the run and gate routes show it (without the OpenAPI name, for use inside other schemas). */
export const GateViewSchema = z.object({
  gate_id: z.string(),
  run_id: z.string(),
  op_id: z.string(),
  policy_key: z.string(),
  kind: z.enum(["auto", "soft", "hard", "deny"]),
  status: z.enum(["pending", "approved", "auto_allowed", "denied", "aborted", "skipped"]),
  rule_id: z.string(),
  reason: z.string(),
  opened_by: z.string(),
  opened_at: z.int(),
  timeout_ms: z.int().optional(),
  deadline_at: z.int().optional(),
  decision: z.string().optional(),
  decided_by: z.string().optional(),
  decided_at: z.int().optional(),
  note: z.string().optional(),
  /** a policy_deploy gate's context: target, version and, for gate rules, the diff against the active rules */
  context: z.record(z.string(), z.unknown()).optional(),
});
export const GateView = GateViewSchema.meta({
  id: "Gate",
  example: {
    gate_id: "gate_9a3f…",
    run_id: "run_5b0c…",
    op_id: "op-123",
    policy_key: "schema_invalid",
    kind: "soft",
    status: "auto_allowed",
    rule_id: "rules.v0#8",
    reason: "schema_invalid → soft (120000 ms) (rules.v0#8)",
    opened_by: "worker-7",
    opened_at: 1767225600000,
    timeout_ms: 120000,
    deadline_at: 1767225720000,
    decision: "auto_allow",
    decided_by: "timer",
    decided_at: 1767225720004,
  },
});

export const OpenGateBody = z
  .strictObject({ policy_key: PolicyKey, op_id: id, context: z.record(z.string().max(64), z.unknown()).optional() })
  .meta({
    id: "OpenGateRequest",
    example: { policy_key: "budget_increase", op_id: "op-77", context: { increase_pct: 15 } },
  });

export const OpenGateResponse = z
  .object({
    gate_id: z.string(),
    kind: z.enum(["auto", "soft", "hard", "deny"]),
    status: z.enum(["allowed", "pending", "denied"]),
    reason: z.string(),
    timeout_ms: z.int().optional(),
    deadline_at: z.int().optional(),
    decided_by: z.string().optional(),
  })
  .meta({
    id: "OpenGateResponse",
    example: {
      gate_id: "gate_9a3f…",
      kind: "soft",
      status: "pending",
      timeout_ms: 60000,
      deadline_at: 1767225660000,
      reason: "budget_increase → soft (60000 ms)",
    },
  });

export const NotArmedApproval = z
  .object({
    gate_id: z.string(),
    run_id: z.string(),
    op_id: z.string(),
    policy_key: z.string(),
    status: z.literal("not_armed"),
    queued_decision: z.string(),
    decided_by: z.string(),
    received_at: z.int(),
  })
  .meta({ id: "QueuedApproval" });

export const ApprovalResponse = z.union([GateView, NotArmedApproval]);

export const GateRulesResponse = z
  .object({
    version: z.int(),
    rules: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({ id: "GateRules" });

export const DeployAccepted = z
  .object({
    version: z.int(),
    status: z.literal("pending"),
    run_id: z.string(),
    op_id: z.string(),
    gate_id: z.string(),
    diff: z
      .object({
        added: z.array(z.string()),
        removed: z.array(z.string()),
        changed: z.array(
          z.object({ policy_key: z.string(), before: z.array(z.unknown()), after: z.array(z.unknown()) }),
        ),
      })
      .optional()
      .meta({ description: "gate rules: what the proposal changes against the active rules, per policy_key" }),
  })
  .meta({
    id: "DeployAccepted",
    example: { version: 2, status: "pending", run_id: "ctl_4be1…", op_id: "deploy-gates-v2", gate_id: "gate_77c0…" },
  });
