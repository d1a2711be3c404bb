// The dead-letter review (pure): a wrong_value dead letter opens a hard dead_letter_review gate with the evidence; its
// decision reissues the order once (with the approver's corrected input, if any), resolves it, or ends the run.
import { z } from "zod";
import { WorkOrderV1 } from "../../../contracts/work-order.v1";
import type { AppError } from "../../errors";
import { mergePatch } from "../../lib/merge-patch";
import { DEAD_LETTER_REVIEW, type Gate, type GateDecision, gateIdFor, openGate } from "../gates/domain";
import { gateHost } from "./gate-ops";
import { reopenSkipped } from "./items";
import { stop } from "./lifecycle";
import type { CommandOf, DeadLetter, Order } from "./model";
import { MAX_ORDER_BYTES } from "./schemas";
import { type Tx, taskFields } from "./tx";

/** the failure class whose dead letters a human reviews (seed 003: wrong value → dead-letter + review, hard) */
export const REVIEWED_FAILURE = "wrong_value";
/** the characters of input and output a review gate carries (the rest stays in the order and the artifacts) */
const EVIDENCE_MAX_CHARS = 16 * 1024;

/** A JSON value for the gate's context, or a note that it was too long to carry (the artifacts hold the rest). */
function evidence(value: unknown): unknown {
  const text = JSON.stringify(value ?? null);
  return text.length <= EVIDENCE_MAX_CHARS ? (value ?? null) : { truncated: true, chars: text.length };
}

/** Why the output was wrong, as the caller's schema guard put it (`output.reason` or `output.schema_guard`). */
function guardReason(output: unknown): string {
  if (typeof output === "object" && output !== null) {
    for (const key of ["schema_guard", "reason"]) {
      const v = (output as Record<string, unknown>)[key];
      if (typeof v === "string" && v.length > 0) return v.slice(0, 500);
    }
  }
  return REVIEWED_FAILURE;
}

/** Opens the hard review of a wrong_value dead letter: what failed, the input, the output, the guard's reason, the artifacts. */
export function openReview(tx: Tx, cmd: CommandOf<"complete">, order: Order, dl: DeadLetter): Gate {
  return openGate(gateHost(tx), {
    op_id: cmd.op_id,
    policy_key: DEAD_LETTER_REVIEW,
    context: {
      dead_letter_id: dl.id,
      order_id: order.order_id,
      task_id: order.task_id,
      failure_class: dl.failure_class,
      reason: guardReason(cmd.output),
      input: evidence(order.body.input_json),
      output: evidence(cmd.output),
      artifacts: cmd.artifacts ?? [],
    },
    subject: { type: "dead_letter", dead_letter_id: dl.id, order_id: order.order_id },
    opener: cmd.actor.subject,
    openerIssuer: cmd.actor.issued_by,
    rules: cmd.gate_rules,
    escalate_after_ms: cmd.escalate_after_ms,
  });
}

const InputJson = WorkOrderV1.shape.input_json;

/**
 * A corrected input for the review gate `policy_key`/`op_id` names: the order's input with the patch merged in must
 * still be a work order's input (an object, within the order size limit). Null = fine (or not a review gate: the
 * machine refuses that itself).
 */
export function patchProblem(
  tx: Tx,
  req: { op_id: string; policy_key: string; patch: Record<string, unknown> },
): AppError | null {
  const gate = tx.gate(gateIdFor(tx.run.run_id, req.op_id, req.policy_key));
  if (gate?.subject.type !== "dead_letter") return null;
  const order = tx.order(gate.subject.order_id);
  if (!order) return null;
  const patched = mergePatch(order.body.input_json, req.patch);
  const problems: { path: string; message: string }[] = [];
  const parsed = InputJson.safeParse(patched);
  if (!parsed.success) problems.push({ path: "patch", message: "the corrected input_json must be a JSON object" });
  else if (JSON.stringify({ ...order.body, input_json: patched }).length > MAX_ORDER_BYTES)
    problems.push({ path: "patch", message: `the corrected order exceeds ${MAX_ORDER_BYTES} bytes` });
  if (problems.length === 0) return null;
  return { code: "validation_failed", message: problems[0]?.message, issues: problems };
}

/** What a decision of the review does to its dead letter: reissue (patched), skip, end the run, or nothing (deny). */
export function settleReview(
  tx: Tx,
  gate: Gate,
  decision: GateDecision,
  approver: string,
  patch: Record<string, unknown> | undefined,
): void {
  if (gate.subject.type !== "dead_letter") return;
  const dl = tx.deadLetter(gate.subject.dead_letter_id);
  const order = tx.order(gate.subject.order_id);
  if (!dl || dl.resolved_at !== null || !order || decision === "deny") return;
  tx.putDeadLetter({ ...dl, resolved_at: tx.now, resolver: approver });
  tx.record({ t: "dead_letter_resolved", id: dl.id, resolved_at: tx.now, resolver: approver });
  const still = order.status === "DEAD_LETTER" && order.dead_letter_id === dl.id;
  if (decision === "approve_retry" || decision === "allow" || decision === "auto_allow") {
    if (still) reissue(tx, gate, order, approver, patch);
  } else if (decision === "approve_skip") {
    if (still) tx.putOrder({ ...order, status: "SKIPPED", dead_letter_id: null });
    tx.emit("task.skipped", { ...taskFields(tx.run, order), gate_id: gate.gate_id });
  } else if (decision === "approve_abort") {
    const reason = `${DEAD_LETTER_REVIEW} ${gate.gate_id} aborted the run`;
    stop(tx, { type: "stop", actor: { team_id: tx.run.team_id, subject: approver }, reason });
  }
}

/** Requeues the order for one attempt, with the corrected input when the approver gave one (audited with the digest). */
function reissue(tx: Tx, gate: Gate, order: Order, approver: string, patch: Record<string, unknown> | undefined) {
  const body = patch
    ? { ...order.body, input_json: mergePatch(order.body.input_json, patch) as Order["body"]["input_json"] }
    : order.body;
  tx.putOrder({
    ...order,
    body,
    status: "QUEUED",
    reissued: true,
    dead_letter_id: null,
    not_before: null,
    reviewed_by: approver,
    ...(patch ? { input_patch: { patch, by: approver, at: tx.now, gate_id: gate.gate_id } } : {}),
  });
  // a graph item is ready again (on the board too, by this transaction's rows); what it skipped waits again
  reopenSkipped(tx, order.order_id);
  if (patch) {
    tx.audit(approver, "dead_letter.input_patched", "dead_letter", order.dead_letter_id ?? "", {
      gate_id: gate.gate_id,
      order_id: order.order_id,
      digest: gate.digest ?? null,
      patch,
    });
  }
  tx.emit("dead_letter.reissued", {
    dead_letter_id: order.dead_letter_id,
    order_id: order.order_id,
    task_id: order.task_id,
    gate_id: gate.gate_id,
    reason_code: REVIEWED_FAILURE,
    resolver: approver,
    reviewed: true,
    patched: patch !== undefined,
  });
}

export const ReviewPatch = z.record(z.string(), z.unknown());
