// planRunLearning: ledger-first writes with guards, W4 skips, desync aborts, corrupted rows reset (DTL-STRAT-001).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  changeHeader,
  entryKey,
  planBreakerReset,
  planRetry,
  planRunLearning,
  planSkill,
  type RunLearningInput,
  seqAfterReset,
} from "./plan";
import { DEFAULT_CONTEXT_HASH, type SkillOutcome } from "./policy-memory";
import type { LearningState } from "./store/learning-store-port";

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

describe("planBreakerReset", () => {
  const ids = {
    teamId: "t",
    runId: "breaker_reset:pml_1",
    eventId: "breaker_reset:pml_1",
    ledgerId: "pml_1",
    actor: "ann",
    now: NOW,
  };
  const stopped = (success: number, failure: number, seq: number) => ({
    row: {
      ...storedRow,
      success_count: success,
      failure_count: failure,
      ledger_seq: seq,
      learning_stopped: 1,
      recent_outcomes: '["failure:x","failure:x","failure:x"]',
    },
    head: {
      seq,
      after: {
        success_count: success,
        failure_count: failure,
        base_weight: 1.2,
        ledger_seq: seq,
        learning_stopped: true,
      },
    },
  });

  it("clears the breaker behind the entry's ledger head and keeps every counter (W3)", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.integer({ min: 1, max: 10_000 }), (success, failure, seq) => {
        const plan = planBreakerReset(stopped(success, failure, seq), ids);
        if (!plan.ok) throw new Error(plan.reason);
        const { write } = plan;
        expect(write.expect).toEqual({ kind: "seq", seq });
        expect(write.seq).toBe(seq + 1);
        expect(write.state).toMatchObject({
          success_count: success,
          failure_count: failure,
          learning_stopped: false,
          recent_outcomes: [],
          ledger_seq: seq + 1,
        });
        expect(write.change).toMatchObject({ kind: "breaker_reset", by: "ann", after: { learning_stopped: false } });
      }),
    );
  });

  it("refuses an entry that learns, a desynced ledger and a corrupted row", () => {
    expect(planBreakerReset({ row: storedRow, head }, ids)).toEqual({ ok: false, reason: "not_stopped" });
    const s = stopped(2, 1, 3);
    expect(planBreakerReset({ row: s.row, head: { ...s.head, seq: 2 } }, ids)).toEqual({
      ok: false,
      reason: "ledger_desync",
    });
    expect(planBreakerReset({ row: { ...s.row, success_count: -1 }, head: s.head }, ids)).toEqual({
      ok: false,
      reason: "corrupted",
    });
  });
});

describe("the steps of planRunLearning", () => {
  const obs = { failureClass: "vibe_fail", recovered: 1, exhausted: 0, recoveryAttempts: 2 };

  it("planSkill: a skill this run already changed is skipped before any id is drawn", () => {
    const state = empty();
    state.learned.add("s");
    const drawn: string[] = [];
    const newId = (p: string) => {
      drawn.push(p);
      return `${p}_1`;
    };
    const step = planSkill(input({ state, newId }), skill());
    expect(step).toEqual({ kind: "skip", skipped: { ledgerKey: "s", reason: "already_learned_for_run" } });
    expect(drawn).toEqual([]);
  });

  it("planSkill: a new entry draws its entry id, then its ledger id, and carries the breaker's warning", () => {
    const drawn: string[] = [];
    const newId = (p: string) => {
      drawn.push(p);
      return `${p}_1`;
    };
    const failing = skill({ success: false, failureClass: "x" });
    const state = empty();
    state.entries.set(entryKey("s", DEFAULT_CONTEXT_HASH), {
      row: { ...storedRow, recent_outcomes: '["failure:x","failure:x"]' },
      head,
    });
    const fresh = planSkill(input({ newId }), failing);
    expect(drawn).toEqual(["pme", "pml"]);
    expect(fresh).toMatchObject({ kind: "write", write: { entryId: "pme_1", ledgerId: "pml_1" }, warnings: [] });
    const stopping = planSkill(input({ state }), failing);
    expect(stopping.kind === "write" && stopping.warnings).toEqual([
      "s: 3 identical failing outcomes in a row; learning stopped",
    ]);
    expect(stopping.kind === "write" && stopping.write.change).toMatchObject({ learning_stopped: "circular_learning" });
  });

  it("planRetry: skips a class this run already changed, aborts on a desynced row, writes otherwise", () => {
    const learned = empty();
    learned.learned.add("retry:vibe_fail");
    expect(planRetry(input({ state: learned }), obs)).toEqual({
      kind: "skip",
      skipped: { ledgerKey: "retry:vibe_fail", reason: "already_learned_for_run" },
    });
    const desynced = empty();
    desynced.retries.set("vibe_fail", {
      row: {
        team_id: "t",
        failure_class: "vibe_fail",
        recovered_count: 1,
        exhausted_count: 0,
        recovery_attempts_sum: 2,
        backoff_multiplier: 1,
        max_attempts_override: null,
        ledger_seq: 2,
        updated_at: NOW - 1,
      },
      head: { seq: 1, after: null },
    });
    expect(planRetry(input({ state: desynced }), obs)).toEqual({
      kind: "abort",
      reason: "ledger_desync",
      ledgerKey: "retry:vibe_fail",
      entryId: "retry_adjustment:t:vibe_fail",
    });
    expect(planRetry(input(), obs)).toMatchObject({
      kind: "write",
      write: { target: "retry", expect: { kind: "none" }, change: { kind: "create", event_id: "e", before: null } },
    });
  });

  it("changeHeader: reset over update over create, always with the event", () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), fc.boolean(), (eventId, hasBefore, isReset) => {
        const reset = isReset ? { reason: "r", previous: "{}" } : null;
        const header = changeHeader(eventId, { before: hasBefore ? {} : null, reset });
        expect(header).toEqual({ kind: isReset ? "reset" : hasBefore ? "update" : "create", event_id: eventId });
      }),
    );
  });

  it("seqAfterReset: one past the ledger's newest seq, never below 1 (no head, or an unreadable one at -1)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 1_000_000 }), (seq) => {
        const next = seqAfterReset({ row: {}, head: { seq, after: null } });
        expect(next).toBe(Math.max(0, seq) + 1);
        expect(next).toBeGreaterThanOrEqual(1);
      }),
    );
    expect(seqAfterReset(undefined)).toBe(1);
    expect(seqAfterReset({ row: {}, head: null })).toBe(1);
  });

  it("planRunLearning is its steps in order: skills, then retry classes; the first abort ends the plan", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { maxLength: 4 }),
        fc.uniqueArray(fc.constantFrom("x", "y"), { maxLength: 2 }),
        fc.subarray(["a", "b", "retry:x"]),
        (skills, classes, learned) => {
          const state = empty();
          for (const k of learned) state.learned.add(k);
          const retries = classes.map((failureClass) => ({ ...obs, failureClass }));
          const plan = planRunLearning(input({ state, skills: skills.map((s) => skill({ skill: s })), retries }));
          if (plan.kind !== "apply") throw new Error("no stored rows: nothing can desync");
          const keys = [...skills, ...classes.map((c) => `retry:${c}`)];
          expect(plan.writes.map((w) => w.ledgerKey)).toEqual(keys.filter((k) => !learned.includes(k)));
          expect(plan.skipped.map((k) => k.ledgerKey)).toEqual(keys.filter((k) => learned.includes(k)));
        },
      ),
    );
  });
});
