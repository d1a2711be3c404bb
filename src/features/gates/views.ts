// Read models of gates (pure): a gate, the answer to "may I go ahead?", and an approval kept until its gate is armed.
import { omitNull } from "../../lib/omit-null";
import { gateDigest } from "./digest";
import type { EarlyApproval, Gate } from "./model";

/** GET /v1/runs/:run_id/gates/:gate_id and POST /v1/approvals */
export function gateView(runId: string, g: Gate) {
  const decided = g.decided_at !== null;
  return {
    gate_id: g.gate_id,
    run_id: runId,
    op_id: g.op_id,
    policy_key: g.policy_key,
    kind: g.kind,
    status: g.status,
    rule_id: g.rule_id,
    reason: g.reason,
    opened_by: g.opened_by,
    opened_at: g.opened_at,
    // gates stored before digests existed get theirs computed from the same content
    digest: g.digest ?? gateDigest(g),
    ...omitNull({
      outcome: g.outcome ?? null,
      channel: g.channel ?? null,
      decided_reason: g.decided_reason ?? null,
      waited_ms: decided ? (g.decided_at as number) - g.opened_at : null,
      rules_version: g.rules_version ?? null,
      profile_version: g.profile_version ?? null,
      early_refused: g.early_refused ?? null,
      escalations: g.escalations?.length ? g.escalations : null,
      timeout_ms: g.timeout_ms,
      deadline_at: g.deadline_at,
      decision: g.decision,
      decided_by: g.decided_by,
      decided_at: g.decided_at,
      note: g.note,
    }),
    ...(g.policy_key === "policy_deploy" ? { context: g.context } : {}),
  };
}

/** POST /v1/runs/:run_id/gates: may the caller go ahead? */
export function gateOpenView(g: Gate) {
  const status: "pending" | "allowed" | "denied" =
    g.status === "pending" ? "pending" : g.status === "approved" || g.status === "auto_allowed" ? "allowed" : "denied";
  return {
    gate_id: g.gate_id,
    kind: g.kind,
    status,
    reason: g.reason,
    digest: g.digest ?? gateDigest(g),
    ...omitNull({
      timeout_ms: g.timeout_ms,
      deadline_at: g.deadline_at,
      decided_by: g.decided_by,
      outcome: g.outcome ?? null,
    }),
  };
}

/** An approval kept until its gate is armed. */
export function earlyView(runId: string, e: EarlyApproval) {
  return {
    gate_id: e.gate_id,
    run_id: runId,
    op_id: e.op_id,
    policy_key: e.policy_key,
    status: "not_armed" as const,
    queued_decision: e.decision,
    decided_by: e.approver,
    received_at: e.received_at,
    ...omitNull({ digest: e.digest ?? null }),
  };
}
