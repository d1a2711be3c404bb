// The operator alerts vocabulary: the kinds the ops channel shows (the board's among them) and one occurrence of one.

/** The ops alerts a board raises (RB-03, RB-04, a disabled persona's items waiting), one per kind per window. */
export const BOARD_ALERT_KINDS = ["board_backpressure", "board_token_rate", "board_persona_waiting"] as const;
export type BoardAlertKind = (typeof BOARD_ALERT_KINDS)[number];

/** The kinds of operator alert the ops channel shows, one coalesced message per kind per window. */
export const ALERT_KINDS = [
  "rollback_demotion",
  "dead_letters",
  "budget_breach",
  "soft_gate_timeout",
  "queue_dead_letters",
  "slack_delivery_failed",
  "gate_ack_sla_breach",
  "gate_resolve_sla_breach",
  // the work board's
  ...BOARD_ALERT_KINDS,
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** One thing worth an operator's attention; `id` makes it count once however often it is reported. */
export type AlertOccurrence = { id: string; team_id: string; kind: AlertKind; at: number; detail: string };
