// planRunLearning: ledger-first writes with guards, W4 skips, desync aborts, corrupted rows reset (DTL-STRAT-001).
import { describe, expect, it } from "vitest";
import type { LearningState } from "../../ports/learning-store";
import { entryKey, planRunLearning, type RunLearningInput } from "./plan";
import { DEFAULT_CONTEXT_HASH, type SkillOutcome } from "./policy-memory";

const NOW = 1_790_000_000_000;
const skill = (over: Partial<SkillOutcome> = {}): SkillOutcome => ({
  skill: "s",
  contextHash: DEFAULT_CONTEXT_HASH,
  success: true,
  failureClass: null,
  costUnits: 1,
  steps: 1,
  ...over,
});
const empty = (): LearningState => ({ learned: new Set(), entries: new Map(), retries: new Map() });

function input(over: Partial<RunLearningInput> = {}): RunLearningInput {
  let n = 0;
  return {
    teamId: "t",
    runId: "r",
    eventId: "e",
    at: NOW,
    now: NOW,
    skills: [skill()],
    retries: [],
    state: empty(),
    newId: (p) => `${p}_${++n}`,
    ...over,
  };
}

const storedRow = {
  entry_id: "pme_x",
  team_id: "t",
  skill_name: "s",
  context_hash: DEFAULT_CONTEXT_HASH,
  success_count: 2,
  failure_count: 1,
  avg_cost_units: 1,
  avg_steps: 1,
  base_weight: 1.2,
  recent_outcomes: '["success"]',
  learning_stopped: 0,
  archived: 0,
  last_used: NOW - 1000,
  created_at: NOW - 5000,
  ledger_seq: 3,
};
const head = {
  seq: 3,
  after: { success_count: 2, failure_count: 1, base_weight: 1.2, ledger_seq: 3, learning_stopped: false },
};

describe("planRunLearning", () => {
  it("creates a new entry behind a ledger row that requires it not to exist yet", () => {
    const plan = planRunLearning(input());
    expect(plan.kind).toBe("apply");
    if (plan.kind !== "apply") return;
    expect(plan.writes).toHaveLength(1);
    expect(plan.writes[0]).toMatchObject({
      target: "entry",
      ledgerKey: "s",
      seq: 1,
      expect: { kind: "none" },
      change: { kind: "create", event_id: "e", before: null, after: { success_count: 1, ledger_seq: 1 } },
    });
  });

  it("updates an entry whose state matches its ledger head, guarded by its ledger_seq", () => {
    const state = empty();
    state.entries.set(entryKey("s", DEFAULT_CONTEXT_HASH), { row: storedRow, head });
    const plan = planRunLearning(input({ state, skills: [skill({ success: false, failureClass: "vibe_fail" })] }));
    expect(plan.kind === "apply" && plan.writes[0]).toMatchObject({
      entryId: "pme_x",
      seq: 4,
      expect: { kind: "seq", seq: 3 },
      change: { kind: "update", before: { failure_count: 1 }, after: { failure_count: 2, ledger_seq: 4 } },
    });
  });

  it.each([
    ["no ledger row at all", null],
    ["a ledger head at another seq", { ...head, seq: 2 }],
    ["a ledger head with other counters", { ...head, after: { ...head.after, success_count: 7 } }],
  ])("aborts the whole run on a ledger/state mismatch: %s", (_what, h) => {
    const state = empty();
    state.entries.set(entryKey("s", DEFAULT_CONTEXT_HASH), { row: storedRow, head: h });
    const plan = planRunLearning(input({ state, skills: [skill({ skill: "a" }), skill()] }));
    expect(plan).toEqual({ kind: "abort", reason: "ledger_desync", ledgerKey: "s", entryId: "pme_x" });
  });

  it("resets a corrupted entry to defaults with DTL-STRAT-001 before applying the run", () => {
    const state = empty();
    state.entries.set(entryKey("s", DEFAULT_CONTEXT_HASH), {
      row: { ...storedRow, recent_outcomes: "not json" },
      head,
    });
    const plan = planRunLearning(input({ state }));
    expect(plan.kind === "apply" && plan.warnings[0]).toContain("DTL-STRAT-001");
    expect(plan.kind === "apply" && plan.writes[0]).toMatchObject({
      entryId: "pme_x",
      seq: 4,
      expect: { kind: "exists" },
      change: { kind: "reset", code: "DTL-STRAT-001", after: { success_count: 1, failure_count: 0 } },
    });
  });

  it("skips skills this run already changed (W4) and entries that stopped learning", () => {
    const state = empty();
    state.learned.add("a");
    state.entries.set(entryKey("s", DEFAULT_CONTEXT_HASH), {
      row: { ...storedRow, learning_stopped: 1 },
      head: { ...head, after: { ...head.after, learning_stopped: true } },
    });
    const plan = planRunLearning(input({ state, skills: [skill({ skill: "a" }), skill()] }));
    expect(plan).toEqual({
      kind: "apply",
      writes: [],
      skipped: [
        { ledgerKey: "a", reason: "already_learned_for_run" },
        { ledgerKey: "s", reason: "learning_stopped" },
      ],
      warnings: [],
    });
  });

  it("plans retry adjustments per failure class under retry:<class> ledger keys", () => {
    const plan = planRunLearning(
      input({ skills: [], retries: [{ failureClass: "vibe_fail", recovered: 1, exhausted: 0, recoveryAttempts: 2 }] }),
    );
    expect(plan.kind === "apply" && plan.writes[0]).toMatchObject({
      target: "retry",
      ledgerKey: "retry:vibe_fail",
      entryId: "retry_adjustment:t:vibe_fail",
      expect: { kind: "none" },
      state: { recovered_count: 1, backoff_multiplier: 1, max_attempts_override: null, ledger_seq: 1 },
    });
  });
});
