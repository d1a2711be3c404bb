// Gate rules (pure): the default approval matrix, team rule sets, and resolving a policy_key to a gate kind.
import { z } from "zod";
import type { ApprovalOutage } from "../slack/domain";
import { SEVERITIES } from "./sla";

export const GATE_KINDS = ["auto", "soft", "hard", "deny"] as const;
export type GateKind = (typeof GATE_KINDS)[number];

/** The longest soft timer a rule may set: one day. */
export const MAX_SOFT_TIMEOUT_MS = 86_400_000;

const Condition = z
  .strictObject({
    lt: z.number().optional(),
    lte: z.number().optional(),
    gt: z.number().optional(),
    gte: z.number().optional(),
    eq: z.union([z.string(), z.number(), z.boolean()]).optional(),
  })
  .refine((c) => Object.keys(c).length > 0, "a condition needs at least one of lt, lte, gt, gte, eq");

export const PolicyKey = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, "policy_key may hold letters, digits and _ . : - only");

export const GateRule = z
  .strictObject({
    policy_key: PolicyKey,
    kind: z.enum(GATE_KINDS),
    timeout_ms: z.int().min(1).max(MAX_SOFT_TIMEOUT_MS).optional(),
    /** every listed context field must satisfy its condition; numeric conditions need a finite number */
    when: z.record(z.string().min(1).max(64), Condition).optional(),
    /** the severity of the gates it opens, for their resolve SLA (gates/sla.ts); default sev2, dead-letter gates sev3 */
    severity: z.enum(SEVERITIES).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.kind === "soft" && rule.timeout_ms === undefined) {
      ctx.addIssue({ code: "custom", path: ["timeout_ms"], message: "a soft rule needs timeout_ms" });
    }
    if (rule.kind !== "soft" && rule.timeout_ms !== undefined) {
      ctx.addIssue({ code: "custom", path: ["timeout_ms"], message: "only soft rules take timeout_ms" });
    }
    if (rule.policy_key === "policy_deploy" && rule.kind !== "hard") {
      ctx.addIssue({ code: "custom", path: ["kind"], message: "policy_deploy is always a hard gate" });
    }
  });
export type GateRule = z.infer<typeof GateRule>;

export const GateRuleSet = z.strictObject({ rules: z.array(GateRule).max(200) }).meta({
  id: "GateRuleSet",
  example: {
    rules: [
      { policy_key: "budget_increase", kind: "soft", timeout_ms: 60000, when: { increase_pct: { lte: 20 } } },
      { policy_key: "budget_increase", kind: "hard" },
    ],
  },
});
export type GateRuleSet = z.infer<typeof GateRuleSet>;

/** The default approval matrix (which failure or request needs which kind of gate); version 0 of every team's rules. */
export const DEFAULT_GATE_RULES: GateRule[] = [
  { policy_key: "wrong_value", kind: "hard" },
  { policy_key: "budget_increase", kind: "soft", timeout_ms: 60_000, when: { increase_pct: { lte: 20 } } },
  { policy_key: "budget_increase", kind: "hard" },
  { policy_key: "policy_deploy", kind: "hard" },
  { policy_key: "schema_rewrite", kind: "hard" },
  { policy_key: "dead_letter_reissue", kind: "soft", timeout_ms: 300_000 },
  // a wrong_value dead letter waits for a human: no timer lets a wrong value through
  { policy_key: "dead_letter_review", kind: "hard" },
  { policy_key: "pii_detected", kind: "hard" },
  { policy_key: "slack_channel_change", kind: "hard" },
  { policy_key: "schema_invalid", kind: "soft", timeout_ms: 120_000 },
];
export const DEFAULT_GATE_RULES_VERSION = 0;

/** A team's active rules; `outage` is its approval outage when one is on (read with the rules, same cache). */
export type ActiveGateRules = { version: number; rules: GateRule[]; outage?: ApprovalOutage | null };
export const DEFAULT_ACTIVE_GATE_RULES: ActiveGateRules = {
  version: DEFAULT_GATE_RULES_VERSION,
  rules: DEFAULT_GATE_RULES,
};

export type GateResolution = { kind: GateKind; timeout_ms: number | null; rule_id: string; reason: string };

type Cond = z.infer<typeof Condition>;

function holds(cond: Cond, value: unknown): boolean {
  const numeric = cond.lt !== undefined || cond.lte !== undefined || cond.gt !== undefined || cond.gte !== undefined;
  if (numeric) {
    if (typeof value !== "number" || !Number.isFinite(value)) return false;
    if (cond.lt !== undefined && !(value < cond.lt)) return false;
    if (cond.lte !== undefined && !(value <= cond.lte)) return false;
    if (cond.gt !== undefined && !(value > cond.gt)) return false;
    if (cond.gte !== undefined && !(value >= cond.gte)) return false;
  }
  if (cond.eq !== undefined && value !== cond.eq) return false;
  return true;
}

/**
 * First rule (in order) whose policy_key matches and whose `when` holds for `context` decides; none → hard
 * (fail closed). policy_deploy is hard whatever the rules say.
 */
export function resolveGate(set: ActiveGateRules, policyKey: string, context: Record<string, unknown>): GateResolution {
  if (policyKey === "policy_deploy") {
    return {
      kind: "hard",
      timeout_ms: null,
      rule_id: "builtin.policy_deploy",
      reason: "policy deploys always wait for a human",
    };
  }
  for (let i = 0; i < set.rules.length; i++) {
    const rule = set.rules[i] as GateRule;
    if (rule.policy_key !== policyKey) continue;
    const when = rule.when ?? {};
    if (
      !Object.entries(when).every(([field, cond]) =>
        holds(cond, Object.hasOwn(context, field) ? context[field] : undefined),
      )
    )
      continue;
    const rule_id = `rules.v${set.version}#${i}`;
    const conditions = Object.keys(when).length ? ` when ${JSON.stringify(when)}` : "";
    return {
      kind: rule.kind,
      timeout_ms: rule.kind === "soft" ? (rule.timeout_ms ?? null) : null,
      rule_id,
      reason: `${policyKey} → ${rule.kind}${rule.kind === "soft" ? ` (${rule.timeout_ms} ms)` : ""}${conditions} (${rule_id})`,
    };
  }
  return {
    kind: "hard",
    timeout_ms: null,
    rule_id: "default.unknown_policy_key",
    reason: `no rule matches ${policyKey}: fail closed to a hard gate`,
  };
}
