// A completion's cited memories (`output.used_mem_ids`, seed 003 §10) travel on its task.completed event to the feed.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { feedStepOf } from "../slack/feed";

const { complete, drain, eventLog, leasedOrder, token } = await nodeHelpers();

describe("used_mem_ids on task.completed", () => {
  it("carries the string ids the output cites, and the feed's step line names them", async () => {
    const tok = await token("used-mem");
    const { runId, lease } = await leasedOrder(tok, "o1");
    const res = await complete(tok, runId, "o1", {
      lease_id: lease.lease_id,
      epoch: lease.epoch,
      op_id: "op-1",
      outcome: "PASS",
      output: { extracted_fields: {}, used_mem_ids: ["team/used-mem/org/sop/extract.v1", 7] },
    });
    expect(res.status, res.text).toBe(200);
    await drain(runId);
    const done = (await eventLog(runId)).find((e) => e.type === "task.completed");
    expect(done.used_mem_ids).toEqual(["team/used-mem/org/sop/extract.v1"]);
    expect(feedStepOf(done)?.line).toContain("used_mem_ids: `team/used-mem/org/sop/extract.v1`");
  });

  it("leaves the field out when the output cites nothing", async () => {
    const tok = await token("used-mem-none");
    const { runId, lease } = await leasedOrder(tok, "o1");
    await complete(tok, runId, "o1", { lease_id: lease.lease_id, epoch: lease.epoch, op_id: "op-1", outcome: "PASS" });
    await drain(runId);
    const done = (await eventLog(runId)).find((e) => e.type === "task.completed");
    expect(done).toBeDefined();
    expect("used_mem_ids" in done).toBe(false);
  });
});
