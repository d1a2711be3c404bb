// The append-only triggers on D1's approval_event (migration 0001), in Node over the D1 stand-in: the schema itself,
// so the raw UPDATE/DELETE statements live here, in an adapter test, and not in the runs or sweeps feature tests.
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { nodeD1 } from "../../../test/node-d1/d1";
import { policyApprovalOp } from "../../../test/record-seeds";
import { createD1RunRecord } from "../../features/runs/store/run-record";

const DAY = 86_400_000;
const db = await nodeD1();
const record = createD1RunRecord(drizzle(db));

describe("approval_event is append-only", () => {
  // moved from src/features/runs/record.app.unit.test.ts
  it("refuses to update or delete an approval_event (append-only)", async () => {
    await record.write([policyApprovalOp("c1", Date.now())]);
    await expect(db.prepare("UPDATE approval_event SET decision = 'deny' WHERE id = 'c1'").run()).rejects.toThrow(
      /append-only/,
    );
    await expect(db.prepare("DELETE FROM approval_event WHERE id = 'c1'").run()).rejects.toThrow(/append-only/);
  });

  // the "(still append-only)" check of src/features/sweeps/sweeps.test.ts's retention test: inside its 365 days an
  // event cannot be deleted; past them the retention sweep may delete it
  it("deletes approval events older than 365 days and keeps the younger ones (still append-only)", async () => {
    const now = Date.now();
    await record.write([policyApprovalOp("old-1", now - 400 * DAY), policyApprovalOp("young", now - 300 * DAY)]);
    await db.prepare("DELETE FROM approval_event WHERE id = 'old-1'").run();
    expect(await db.prepare("SELECT id FROM approval_event WHERE id = 'old-1'").first()).toBeNull();
    await expect(db.prepare("DELETE FROM approval_event WHERE id = 'young'").run()).rejects.toThrow(/append-only/);
    expect(await db.prepare("SELECT id FROM approval_event WHERE id = 'young'").first("id")).toBe("young");
  });
});
