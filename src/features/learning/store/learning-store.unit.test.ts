// A learning batch that lost a race becomes a LearningConflict by the constraint it broke; any other failure is thrown.
import { describe, expect, it } from "vitest";
import { conflictOf } from "./learning-store";

const d1Error = (message: string) => new Error(`D1_ERROR: ${message}: SQLITE_CONSTRAINT`);

describe("conflictOf", () => {
  it("a second delivery of an event is already_processed", () => {
    expect(conflictOf(d1Error("UNIQUE constraint failed: processed_event.event_id"))).toMatchObject({
      kind: "already_processed",
    });
  });

  it.each([
    "NOT NULL constraint failed: policy_memory_ledger.entry_id",
    "UNIQUE constraint failed: policy_memory_ledger.team_id, policy_memory_ledger.run_id",
    "UNIQUE constraint failed: policy_memory_entry.team_id, policy_memory_entry.skill_name",
    "UNIQUE constraint failed: retry_adjustment.team_id, retry_adjustment.failure_class",
  ])("a guard that no longer held is state_moved: %s", (message) => {
    expect(conflictOf(d1Error(message))).toMatchObject({ kind: "state_moved" });
  });

  it("anything else is rethrown as it is", () => {
    const other = d1Error("NOT NULL constraint failed: run_task_outcome.updated_at");
    expect(() => conflictOf(other)).toThrow(other);
    expect(() => conflictOf(new Error("network"))).toThrow("network");
  });
});
