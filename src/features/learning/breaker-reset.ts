// Use-case: an admin restarts learning for a policy-memory entry the circular-learning breaker stopped (ledger + audit).
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import { planBreakerReset } from "./plan";
import type { LearningStore } from "./store/learning-store-port";

export type BreakerReset = {
  entry_id: string;
  skill_name: string;
  context_hash: string;
  learning_stopped: false;
  ledger_seq: number;
  reset_at: string;
  audit_id: string;
};

const refusals = {
  not_stopped: "this entry is still learning: only an entry the circular-learning breaker stopped can be reset",
  ledger_desync: "the entry's ledger does not describe its stored state; nothing was changed",
  corrupted: "the entry's stored state is corrupted; learning resets it to defaults on its next run",
} as const;

/** One ledger row, the entry's change and an audit row in one batch; a concurrent change makes it a 409. */
export async function resetLearningBreaker(
  deps: { learningStore: LearningStore; newId: (prefix: string) => string },
  actor: { teamId: string; subject: string },
  entryId: string,
  now: number,
): Promise<Result<BreakerReset, AppError>> {
  const stored = await deps.learningStore.entryById(actor.teamId, entryId);
  if (!stored) return err({ code: "not_found", message: `no policy memory entry ${entryId}` });
  const ledgerId = deps.newId("pml");
  // its own "run" in the ledger: W4 allows one change per skill per run, and a reset is no run's learning
  const runId = `breaker_reset:${ledgerId}`;
  const plan = planBreakerReset(stored, {
    teamId: actor.teamId,
    runId,
    eventId: runId,
    ledgerId,
    actor: actor.subject,
    now,
  });
  if (!plan.ok) return err({ code: "conflict", message: refusals[plan.reason] });
  const { write } = plan;
  const auditId = deps.newId("aud");
  const committed = await deps.learningStore.commitLearning({
    eventId: runId,
    eventType: "policy_memory.breaker_reset",
    teamId: actor.teamId,
    runId,
    now,
    writes: [write],
    audit: {
      id: auditId,
      action: "policy_memory.breaker_reset",
      actor: actor.subject,
      subject: { type: "policy_memory_entry", id: write.entryId },
      metadata: {
        skill_name: write.state.skill_name,
        context_hash: write.state.context_hash,
        ledger_id: ledgerId,
        recent_outcomes: write.change.recent_outcomes,
      },
    },
  });
  if (!committed.ok)
    return err({ code: "conflict", message: `the entry changed meanwhile (${committed.error.kind}); try again` });
  return ok({
    entry_id: write.entryId,
    skill_name: write.state.skill_name,
    context_hash: write.state.context_hash,
    learning_stopped: false,
    ledger_seq: write.seq,
    reset_at: new Date(now).toISOString(),
    audit_id: auditId,
  });
}
