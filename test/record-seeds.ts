// Test fixtures that seed D1 state through the owning features' stores (no SQL): run records, gate metrics, mode ceilings, session rows.
import { drizzle } from "drizzle-orm/d1";
import { sessionRows } from "../src/adapters/d1/memory-session-rows";
import { createD1EventDeadLetterStore } from "../src/features/events/store/event-dead-letters";
import { createD1LearningStore } from "../src/features/learning/store/learning-store";
import { createD1PolicyStore } from "../src/features/policy/store/policy-store";
import { createD1RunRecord } from "../src/features/runs/store/run-record";
import type { ApprovalRow, RecordOp } from "../src/features/runs/store/run-record-port";

type RowOf<T extends RecordOp["t"]> = Extract<RecordOp, { t: T; row: unknown }>["row"];

/** a run row (kind agent, updated when created unless given) */
export const runOp = (row: Omit<RowOf<"run">, "kind" | "updated_at"> & Partial<RowOf<"run">>): RecordOp => ({
  t: "run",
  row: { kind: "agent", updated_at: row.created_at, ...row },
});

/** an attempt row (no failure class, holder or persona unless given) */
export const attemptOp = (
  row: Omit<RowOf<"attempt">, "failure_class" | "holder" | "persona_id"> & Partial<RowOf<"attempt">>,
): RecordOp => ({ t: "attempt", row: { failure_class: null, holder: null, persona_id: null, ...row } });

/**
 * An approval row as written before gate outcomes and channels were recorded (outcome, channel, reason, note and
 * dedupe key NULL): the readers' fallback for such rows decides who counts as a human.
 */
/** a policy-approved approval_event of run "run_rec" (team "t") for op `id`, recorded at `created_at` */
export const policyApprovalOp = (id: string, created_at: number): RecordOp => ({
  t: "approval",
  row: {
    id,
    team_id: "t",
    run_id: "run_rec",
    op_id: id,
    gate_id: `g-${id}`,
    policy_key: "k",
    decision: "allow",
    approver: "policy",
    reason: null,
    note: null,
    dedupe_key: `run_rec:g-${id}`,
    created_at,
    outcome: "approved",
    channel: "policy",
  },
});

export const legacyApprovalOp = (
  row: Omit<ApprovalRow, "reason" | "note" | "dedupe_key" | "outcome" | "channel">,
): RecordOp => ({
  t: "approval",
  // the row type says what today's writers always set; these rows predate it
  row: { reason: null, note: null, dedupe_key: null, outcome: null, channel: null, ...row } as unknown as ApprovalRow,
});

/** a dead-lettered order (empty payload unless given) */
export const deadLetterOp = (row: Omit<RowOf<"dead_letter">, "payload"> & { payload?: unknown }): RecordOp => ({
  t: "dead_letter",
  row: { payload: {}, ...row },
});

type GateEvent = Parameters<ReturnType<typeof createD1LearningStore>["recordGateEvents"]>[0][number];

/** The owning stores over one database, for seeding a feature test's state with explicit times and values. */
export function recordSeeds(d1: D1Database) {
  const db = drizzle(d1);
  const runRecord = createD1RunRecord(db);
  const learning = createD1LearningStore(d1);
  const sessions = sessionRows(db);
  return {
    /** run, order, attempt, approval, dead-letter and audit rows in one batch (run-record's writer) */
    records: (ops: RecordOp[]) => runRecord.write(ops),
    /** gate_metric rows (the learning consumer's writer); fields not given are NULL */
    gateMetrics: (rows: (Pick<GateEvent, "teamId" | "gateId" | "runId"> & Partial<GateEvent>)[]) =>
      learning.recordGateEvents(
        rows.map((r) => ({
          policyKey: null,
          kind: null,
          openedAt: null,
          decidedAt: null,
          decision: null,
          decidedBy: null,
          latencyMs: null,
          ...r,
        })),
      ),
    /** the team's mode ceiling with its reason, set at `at` */
    modeCeiling: (...args: Parameters<ReturnType<typeof createD1PolicyStore>["setModeCeiling"]>) =>
      createD1PolicyStore(db).setModeCeiling(...args),
    insertSessionEvent: sessions.insertSessionEvent,
    recordActivation: sessions.recordActivation,
    eventDeadLetters: createD1EventDeadLetterStore(db),
  };
}
