// Wire shapes of the gate and approval routes (zod, with OpenAPI examples).
import { z } from "zod";
import { WireId } from "../../../contracts/wire-id";
import { AppFailure } from "../../errors";
import { CALLER_CHANNELS, DECISION_CHANNELS, GATE_OUTCOMES, isSystemDecider } from "./outcome";
import { GATE_KINDS, PolicyKey } from "./rules";

const id = WireId;
/** largest gate context (serialized JSON) */
export const MAX_CONTEXT_BYTES = 16 * 1024;

export const RunParams = z.object({ run_id: id });
export const GateParams = z.object({ run_id: id, gate_id: id });

/** The fields that name a gate, the same in every listing of gates (its view, the inbox list). */
export const GATE_KEY_FIELDS = {
  gate_id: z.string(),
  run_id: z.string(),
  op_id: z.string(),
  policy_key: z.string(),
  kind: z.enum(GATE_KINDS),
};

/** A gate as the run and gate routes show it (without the OpenAPI name, for use inside other schemas). */
export const GateViewSchema = z.object({
  ...GATE_KEY_FIELDS,
  status: z.enum(["pending", "approved", "auto_allowed", "denied", "aborted", "skipped"]),
  rule_id: z.string(),
  reason: z.string(),
  opened_by: z.string(),
  opened_at: z.int(),
  digest: z
    .string()
    .meta({ description: "sha256 of the gate content; send it with a decision (ApprovalAction.digest)" }),
  outcome: z.enum(GATE_OUTCOMES).optional().meta({ description: "how the gate ended; absent while pending" }),
  channel: z.enum(DECISION_CHANNELS).optional().meta({ description: "where the decision came from" }),
  decided_reason: z.string().optional().meta({ description: "why it was decided so (timer, stop, early approval)" }),
  waited_ms: z.int().optional().meta({ description: "decided_at − opened_at" }),
  rules_version: z.int().optional().meta({ description: "the team gate-rule version that resolved its kind" }),
  profile_version: z
    .int()
    .optional()
    .meta({ description: "the MemRL profile version whose decision opened the gate (a failed attempt escalated)" }),
  early_refused: z
    .object({ approver: z.string(), decision: z.string(), why: z.string(), received_at: z.int() })
    .optional()
    .meta({ description: "an approval sent before the gate was armed that did not apply, and why" }),
  escalations: z
    .array(z.object({ level: z.union([z.literal(1), z.literal(2)]), at: z.int() }))
    .optional()
    .meta({
      description:
        "escalation levels fired while the hard gate stayed open (1: approvers re-pinged, 2: escalation target), each with the time it fell due",
    }),
  timeout_ms: z.int().optional(),
  deadline_at: z.int().optional(),
  decision: z.string().optional(),
  decided_by: z.string().optional(),
  decided_at: z.int().optional(),
  note: z.string().optional(),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({
      description:
        "a policy_deploy gate's target, version and rule diff; a dead_letter_review gate's evidence (dead_letter_id, " +
        "order_id, reason, input, output, artifacts), on the one-gate read only",
    }),
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
    digest: "3b1f…",
    outcome: "timed_out",
    channel: "timer",
    decided_reason: "soft gate timer (120000 ms) elapsed",
    waited_ms: 120004,
    rules_version: 0,
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
    kind: z.enum(GATE_KINDS),
    status: z.enum(["allowed", "pending", "denied"]),
    reason: z.string(),
    digest: z.string(),
    timeout_ms: z.int().optional(),
    deadline_at: z.int().optional(),
    decided_by: z.string().optional(),
    outcome: z.enum(GATE_OUTCOMES).optional(),
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
      digest: "9c41…",
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
    digest: z.string().optional(),
  })
  .meta({ id: "QueuedApproval" });

/** X-Warden-Channel: where a person decided (the CLI sends cli, the web pages web); absent = api. */
export const CHANNEL_HEADER = "x-warden-channel";
export const CHANNEL_HEADER_DOC =
  "Send `X-Warden-Channel: api | cli | web` to record where the decision was made (default api).";

/** A person's decision: a token whose subject is one of Warden's own deciders (timer, policy, the outage fallback) is
 * refused, or its decision would be counted as the system's. */
export function assertPersonDecides(subject: string): void {
  if (isSystemDecider(subject))
    throw new AppFailure({ code: "forbidden", message: `subject ${subject} is reserved for Warden's own decisions` });
}

/** The caller's channel hint, or a 400 naming the header (read by hand: a declared header would become a required
 * field of every typed-client call). */
export function channelHint(value: string | undefined): (typeof CALLER_CHANNELS)[number] | undefined {
  if (value === undefined) return undefined;
  const parsed = z.enum(CALLER_CHANNELS).safeParse(value.trim().toLowerCase());
  if (parsed.success) return parsed.data;
  const message = `X-Warden-Channel must be one of ${CALLER_CHANNELS.join(", ")}`;
  throw new AppFailure({ code: "validation_failed", message, issues: [{ path: "X-Warden-Channel", message }] });
}

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
