// The audit row a run's learning leaves: aborted (ledger/state mismatch), partly skipped, or none.
import { describe, expect, it } from "vitest";
import { learningAudit } from "./consume";

const run = { eventId: "evt_1" };

describe("learningAudit", () => {
  it("an aborted run is audited with the reason and the entry that desynced", () => {
    const audit = learningAudit(
      run,
      { kind: "abort", reason: "ledger_desync", ledgerKey: "s", entryId: "pme_1" },
      () => "aud_1",
    );
    expect(audit).toEqual({
      id: "aud_1",
      action: "policy_memory.learning_aborted",
      metadata: { event_id: "evt_1", reason: "ledger_desync", entry: "s", entry_id: "pme_1" },
    });
  });

  it("a run with skipped skills is audited with each skip; a run applied in full leaves none", () => {
    const skipped = [{ ledgerKey: "a", reason: "already_learned_for_run" as const }];
    expect(learningAudit(run, { kind: "apply", writes: [], skipped, warnings: [] }, () => "aud_2")).toEqual({
      id: "aud_2",
      action: "policy_memory.learning_skipped",
      metadata: { event_id: "evt_1", skipped },
    });
    const drawn: string[] = [];
    const newId = () => {
      drawn.push("aud");
      return "aud_3";
    };
    expect(learningAudit(run, { kind: "apply", writes: [], skipped: [], warnings: ["w"] }, newId)).toBeNull();
    expect(drawn).toEqual([]);
  });
});
