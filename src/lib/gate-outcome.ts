// The gate outcome and decision channel vocabulary, shared by the gates feature (which maps to it) and the D1 reads.

/** How a resolved gate ended; `approved` and `denied` through a human channel are the only human decisions. */
export const GATE_OUTCOMES = ["approved", "denied", "timed_out", "cancelled", "superseded", "fallback_denied"] as const;
export type GateOutcome = (typeof GATE_OUTCOMES)[number];

/**
 * Where a decision came from. Humans decide through slack | api | cli | web (the API and CLI name theirs with the
 * `X-Warden-Channel` header, default api); timer is a soft gate's timer or a hard gate's expiry; policy is the rules
 * deciding at arming time (auto and deny gates) or a newer proposal superseding a gate; rollback is a policy rollback;
 * outage_fallback is the approval-outage fallback.
 */
export const DECISION_CHANNELS = [
  "slack",
  "api",
  "cli",
  "web",
  "timer",
  "rollback",
  "outage_fallback",
  "policy",
] as const;
export type DecisionChannel = (typeof DECISION_CHANNELS)[number];
/** the channels through which a person decides */
export const HUMAN_CHANNELS = ["slack", "api", "cli", "web"] as const satisfies readonly DecisionChannel[];

/** The decider the approval-outage fallback records (the Slack feature resolves such gates as deny with it). */
export const OUTAGE_APPROVER = "system:approval-outage";

/** The decider the rollback matrix records when it denies a ceiling change its rollback would undo (channel rollback). */
export const ROLLBACK_APPROVER = "system:rollback";

/** The approval_event reason of a gate aborted by stopping its run: not a human approval (GET /v1/metrics). */
export const STOP_ABORT_REASON = "run stopped";
