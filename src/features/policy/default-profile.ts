// The built-in MemRL profile (version 0) every team starts with until it deploys its own.
import {
  ATTEMPT_BUCKETS,
  FAILURE_CLASSES,
  MEMRL_MODES,
  type MemrlPolicyProfile,
  type PolicyRule,
} from "../../../contracts/memrl-policy";

export const DEFAULT_PROFILE_VERSION = 0;

export const TIE_BREAK_RULES = [
  "specificity: exact failure_class and exact attempt_bucket before wildcard matches",
  "priority: higher numeric priority wins within same specificity",
  "rule_id: lexical ascending as final deterministic tie-break",
];

function defaultRules(): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const mode of MEMRL_MODES) {
    for (const failureClass of FAILURE_CLASSES) {
      for (const bucket of ATTEMPT_BUCKETS) {
        const escalate =
          bucket === "final" || bucket === "overflow" || (mode === "enforce" && failureClass === "crank_blocked");
        rules.push({
          rule_id: `${mode}.${failureClass}.${bucket}`,
          memrl_mode: mode,
          failure_class: failureClass,
          attempt_bucket: bucket,
          action: escalate ? "escalate" : "retry",
          priority: 100,
        });
      }
    }
    rules.push({
      rule_id: `${mode}.fallback`,
      memrl_mode: mode,
      failure_class: "*",
      attempt_bucket: "*",
      action: "escalate",
      priority: 0,
    });
  }
  return rules;
}

export const DEFAULT_PROFILE: MemrlPolicyProfile = {
  schema_version: 1,
  default_mode: "off",
  unknown_failure_class_action: "escalate",
  missing_metadata_action: "escalate",
  tie_break_rules: TIE_BREAK_RULES,
  rules: defaultRules(),
  rollback_matrix: [
    {
      trigger_id: "enforce_escalation_rate_high",
      metric: "escalation_rate",
      metric_source_command: "GET /v1/metrics (escalation_rate)",
      lookback_window: "24h",
      min_sample_size: 10,
      threshold: "escalation_rate > 0.35",
      operator_action: "set memrl_mode ceiling to observe and rerun from validation",
      verification_command: "GET /v1/policy/profile and POST /v1/policy/decide with memrl_mode=enforce",
    },
    {
      trigger_id: "unknown_failure_class_ratio_high",
      metric: "unknown_failure_class_ratio",
      metric_source_command: "GET /v1/metrics (unknown_failure_class_ratio)",
      lookback_window: "48h",
      min_sample_size: 5,
      threshold: "unknown_failure_class_ratio > 0.10",
      operator_action: "set memrl_mode ceiling to off and open corrective issue for failure-class mapping",
      verification_command: "POST /v1/policy/decide reports memrl_mode=off",
    },
    {
      trigger_id: "missing_metadata_present",
      metric: "missing_metadata_count",
      metric_source_command: "GET /v1/metrics (missing_metadata_count)",
      lookback_window: "24h",
      min_sample_size: 1,
      threshold: "missing_metadata_count >= 1",
      operator_action: "set memrl_mode ceiling to off and fix the caller's retry metadata",
      verification_command: "POST /v1/policy/decide reports memrl_mode=off",
    },
  ],
};
