// Reading the team's dead letters: the D1 rows as the wire shows them, and one with its review gate's evidence.
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import { DEAD_LETTER_REVIEW } from "../gates/domain";
import { callRun, type RunActor, type RunOpReply, type RunsService } from "../runs";
import type { DeadLetterIndex, DeadLetterQuery, DeadLetterRow } from "./store/dead-letter-index-port";

const text = (v: unknown) => (typeof v === "string" ? v : null);

/** A dead letter as GET /v1/dead-letters lists it (the payload's order, task and failure class lifted out). */
export function deadLetterItem(r: DeadLetterRow) {
  return {
    dead_letter_id: r.dead_letter_id,
    run_id: r.run_id,
    op_id: r.op_id,
    order_id: text(r.payload?.order_id),
    task_id: text(r.payload?.task_id),
    reason_code: r.reason_code,
    failure_class: text(r.payload?.failure_class),
    created_at: r.created_at,
    resolved_at: r.resolved_at,
    resolver: r.resolver,
    review_gate_id: r.review?.gate_id ?? null,
    review_status: r.review?.status ?? null,
  };
}

/** Who reads: the team, and the run a run-bound token is limited to. */
export type Reader = { teamId: string; runId?: string; actor: RunActor };

export async function listDeadLetters(index: DeadLetterIndex, reader: Reader, q: Omit<DeadLetterQuery, "reviewKey">) {
  const runId = reader.runId ?? q.runId;
  if (reader.runId !== undefined && q.runId !== undefined && q.runId !== reader.runId) return { dead_letters: [] };
  const rows = await index.list(reader.teamId, {
    ...q,
    ...(runId !== undefined ? { runId } : {}),
    reviewKey: DEAD_LETTER_REVIEW,
  });
  return { dead_letters: rows.map(deadLetterItem) };
}

type DeadLetterDetail = ReturnType<typeof deadLetterItem> & {
  goal: string | null;
  attempts: number | null;
  review: RunOpReply<"get_gate"> | null;
};

/** One dead letter with its review gate read from the run object (the evidence lives there, not in D1). */
export async function showDeadLetter(
  deps: { deadLetterIndex: DeadLetterIndex; runs: RunsService },
  reader: Reader,
  id: string,
): Promise<Result<DeadLetterDetail, AppError>> {
  const row = await deps.deadLetterIndex.get(reader.teamId, id, DEAD_LETTER_REVIEW);
  if (!row || (reader.runId !== undefined && row.run_id !== reader.runId))
    return err({ code: "not_found", message: `dead letter ${id} not found for this team` });
  const review = row.review
    ? await callRun(deps.runs, row.run_id, "get_gate", { actor: reader.actor, gate_id: row.review.gate_id })
    : null;
  const attempts = row.payload?.attempts;
  return ok({
    ...deadLetterItem(row),
    goal: text(row.payload?.goal),
    attempts: typeof attempts === "number" ? attempts : null,
    review: review?.value ?? null,
  });
}
