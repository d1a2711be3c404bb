// Typed events: a wrong or missing field is a tsc error at every producer (the @ts-expect-error lines) and a parse error.
import { describe, expect, it } from "vitest";
import { RUN_EVENT_FIELDS } from "../../../contracts/event-fields";
import { type EventInput, InternalEvent } from "../../../contracts/internal-events";
import type { EventBus } from "../../ports/event-bus";
import type { GateHost } from "../gates/machine";
import type { Tx } from "../runs/tx";

const task = { order_id: "o1", task_id: "t1", skill: null, steps: 1 };

/** Never called: tsc checks these lines (npx tsc --noEmit); each @ts-expect-error fails the build once it compiles. */
export function producerTypeChecks(tx: Tx, host: GateHost, bus: EventBus) {
  tx.emit("task.skipped", { ...task, gate_id: "g1" });
  // @ts-expect-error a field task.skipped does not carry
  tx.emit("task.skipped", { ...task, gate_id: "g1", gate: "g1" });
  // @ts-expect-error task.skipped without its gate_id
  tx.emit("task.skipped", { ...task });
  // @ts-expect-error a field of the wrong type
  tx.emit("item.cancelled", { item_id: 7, reason: "run stopped" });
  // @ts-expect-error a type no run emits
  tx.emit("task.exploded", {});
  // @ts-expect-error the gate machine emits gate.decided with its decision fields, not gate.opened's
  host.emit("gate.decided", { gate_id: "g", op_id: "o", policy_key: "p", kind: "hard", rule_id: null, context: {} });
  const refused: EventInput<"memory_store_failed"> = {
    event_id: "e",
    type: "memory_store_failed",
    team_id: "t",
    occurred_at: 1,
    source: "memory.write",
    code: "rejected",
    rule_ids: [],
  };
  void bus.publish([refused]);
  // @ts-expect-error a refusal code the guard never gives
  void bus.publish([{ ...refused, code: "nope" }]);
  // @ts-expect-error a rollback without its trigger
  void bus.publish([{ event_id: "e", type: "policy.rollback", team_id: "t", occurred_at: 1, metric: "m" }]);
}

const envelope = { event_id: "evt_r_3", team_id: "t", run_id: "r", seq: 3, occurred_at: 9 };

describe("event fields", () => {
  it("every run event type's fields refuse an unknown field and a missing one", () => {
    const skipped = RUN_EVENT_FIELDS["task.skipped"];
    expect(skipped.safeParse({ ...task, gate_id: "g1" }).success).toBe(true);
    expect(skipped.safeParse({ ...task, gate_id: "g1", gate: "g1" }).success).toBe(false);
    expect(skipped.safeParse(task).success).toBe(false);
    for (const [type, schema] of Object.entries(RUN_EVENT_FIELDS)) {
      expect(schema.safeParse({ not_a_field: 1 }).success, type).toBe(false);
    }
  });

  it("the queue union parses a run's gate event strictly, an agent's task event loosely", () => {
    const opened = {
      ...envelope,
      type: "gate.opened",
      gate_id: "g1",
      op_id: "op1",
      policy_key: "wrong_value",
      kind: "hard",
      rule_id: null,
      timeout_ms: null,
      deadline_at: null,
      opened_by: "w",
      digest: null,
      context: {},
    };
    expect(InternalEvent.safeParse(opened).success).toBe(true);
    expect(InternalEvent.safeParse({ ...opened, extra: 1 }).success).toBe(false);
    expect(InternalEvent.safeParse({ ...opened, kind: undefined }).success).toBe(false);
    // a run event over the queue's size limit: its envelope, marked truncated
    expect(InternalEvent.safeParse({ ...envelope, type: "gate.opened", truncated: true }).data).toMatchObject({
      truncated: true,
    });
    const agent = { ...envelope, type: "task.failed", task_id: "k", source: "api", client_event_id: "c1" };
    expect(InternalEvent.parse(agent)).toMatchObject({ source: "api", client_event_id: "c1" });
  });
});
