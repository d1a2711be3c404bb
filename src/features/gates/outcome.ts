// Gate outcomes and decision channels (pure): the one mapping from how a gate was resolved to the outcome every
// surface shows (run view, gate routes, inbox, trace page, audit rows, the D1 gate index and GET /v1/metrics).

import { type DecisionChannel, type GateOutcome, OUTAGE_APPROVER, ROLLBACK_APPROVER } from "../../lib/gate-outcome";

export {
  DECISION_CHANNELS,
  type DecisionChannel,
  GATE_OUTCOMES,
  type GateOutcome,
  HUMAN_CHANNELS,
  OUTAGE_APPROVER,
  ROLLBACK_APPROVER,
} from "../../lib/gate-outcome";

/** the channels a caller may name for its own decision (X-Warden-Channel); the others are Warden's own */
export const CALLER_CHANNELS = ["api", "cli", "web"] as const satisfies readonly DecisionChannel[];
/** Deciders that are Warden itself, never a person. */
const SYSTEM_DECIDERS: Readonly<Record<string, DecisionChannel>> = {
  timer: "timer",
  policy: "policy",
  [OUTAGE_APPROVER]: "outage_fallback",
  [ROLLBACK_APPROVER]: "rollback",
};

/** Warden's own deciders: a caller whose token names one of them is not let decide (it would pass as the system). */
export const isSystemDecider = (subject: string) => Object.hasOwn(SYSTEM_DECIDERS, subject);

/** Why a gate stopped being pending, besides somebody deciding it. */
export type Resolution = "decided" | "run_stopped" | "superseded";

/** The channel a decision is recorded with: Warden's own deciders name theirs, anyone else the caller's hint. */
export const channelFor = (decidedBy: string, hint: DecisionChannel | undefined): DecisionChannel =>
  SYSTEM_DECIDERS[decidedBy] ?? hint ?? "api";

/** The one mapping from a resolution to its outcome. `allows` is whether the decision lets the guarded thing go on. */
export function gateOutcome(r: { allows: boolean; channel: DecisionChannel; resolution: Resolution }): GateOutcome {
  if (r.resolution === "run_stopped") return "cancelled";
  if (r.resolution === "superseded") return "superseded";
  if (r.channel === "outage_fallback") return "fallback_denied";
  if (r.channel === "timer") return "timed_out";
  return r.allows ? "approved" : "denied";
}
