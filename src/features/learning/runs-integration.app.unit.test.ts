// RunDO → EVENTS → learning consumer in Node (Durable Object and queue stand-ins): a real run's run.completed event
// becomes policy memory.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";

const { call, complete, drainAll, drainQueues, leasedOrder, token } = await nodeHelpers({ queues: true });

describe("runs feed the learning consumer", () => {
  it("learns a finished run's skills from RunDO's run.completed (success and dead letter)", async () => {
    const tok = await token("team-runs-learn");
    const ok = await leasedOrder(tok, "o1", {}, { goal: "passes", skills: ["code.test"] });
    const passed = await complete(tok, ok.runId, "o1", {
      lease_id: ok.lease.lease_id,
      epoch: ok.lease.epoch,
      op_id: "op-pass",
      outcome: "PASS",
      tokens_in: 120,
      tokens_out: 30,
    });
    expect(passed.json.next).toBe("complete");
    const bad = await leasedOrder(tok, "o1", {}, { goal: "fails", skills: ["code.edit"] });
    const failed = await complete(tok, bad.runId, "o1", {
      lease_id: bad.lease.lease_id,
      epoch: bad.lease.epoch,
      op_id: "op-fail",
      outcome: "ERROR",
      failure_class: "wrong_value",
    });
    expect(failed.json.next).toBe("dead_letter");

    // the runs' outboxes reach EVENTS, then the learning consumer runs: no polling in Node
    await drainAll();
    await drainQueues();
    const snapshot = (await call("GET", "/v1/policy-memory", { token: tok })).json;
    expect(snapshot.entries).toHaveLength(2);
    expect(
      snapshot.entries.map(
        (e: { skill_name: string; success_count: number; failure_count: number; avg_cost_units: number }) => [
          e.skill_name,
          e.success_count,
          e.failure_count,
          e.avg_cost_units,
        ],
      ),
    ).toEqual([
      ["code.edit", 0, 1, 0],
      ["code.test", 1, 0, 150],
    ]);
    expect(snapshot.routing_weights["code.test"]).toBeGreaterThan(snapshot.routing_weights["code.edit"]);
  });
});
