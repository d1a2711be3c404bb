// Property test: a run keeps the hints of its last FAILURE_HINTS_KEPT failed attempts that found any, in order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_ACTIVE_GATE_RULES } from "../gates/rules";
import { DEFAULT_COMPILED } from "../policy/team-policy-cache";
import { type Command, FAILURE_HINTS_KEPT, type RunState } from "./model";
import { reduce } from "./reducer";
import { emptySnapshot } from "./snapshot";

const actor = { team_id: "team-fh", subject: "alice" };
const policy = { compiled: DEFAULT_COMPILED, ceiling: "enforce" as const };

/** every event the steps emitted, by type */
let emitted: string[] = [];

function step(state: RunState | null, cmd: Command, now: number): RunState {
  const r = reduce(state, cmd, now);
  if (!r.ok) throw new Error(`${cmd.type} failed: ${JSON.stringify(r.error)}`);
  emitted.push(...r.effects.events.map((e) => e.type));
  return r.state;
}

/** One order per attempt: add, lease, fail with wrong_value (dead letter, so no order is ever retried). */
function failOrder(state: RunState, i: number, hintCount: number, now: number): RunState {
  const order_id = `o${i}`;
  let s = step(
    state,
    {
      type: "add_order",
      actor,
      order: { order_id, task_id: `t${i}`, goal: "g", input_json: {}, output_schema_id: "s", timeout_sec: 5 },
      skill: null,
    },
    now,
  );
  s = step(s, { type: "lease", actor, order_id, worker_id: "w", lease_id: `l${i}` }, now);
  return step(
    s,
    {
      type: "complete",
      actor,
      order_id,
      lease_id: `l${i}`,
      epoch: 1,
      op_id: `op${i}`,
      digest: `d${i}`,
      outcome: "ERROR",
      failure_class: "wrong_value",
      tokens_in: 1,
      tokens_out: 1,
      output: null,
      policy,
      gate_rules: DEFAULT_ACTIVE_GATE_RULES,
      failure_hints: Array.from({ length: hintCount }, (_, k) => ({
        id: `m${i}-${k}`,
        namespace: "team/team-fh/org",
        class: "semantic",
        text: "lesson",
        score: 0.5,
      })),
    },
    now,
  );
}

describe("failure hints kept on the run", () => {
  it("keeps the last FAILURE_HINTS_KEPT failed attempts with hints, oldest first, and one observer event each", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 25 }), (hintCounts) => {
        emitted = [];
        let s = step(
          null,
          {
            type: "create",
            actor,
            run_id: "run_fh",
            kind: "agent",
            goal: "g",
            template: null,
            skills: ["s"],
            budget: { input_tokens: 10_000, output_tokens: 10_000, total_tokens: null },
            hints: [],
            snapshot: emptySnapshot(0),
          },
          0,
        );
        hintCounts.forEach((n, i) => {
          s = failOrder(s, i, n, 1000 + i);
        });
        const expected = hintCounts
          .map((n, i) => ({ n, i }))
          .filter(({ n }) => n > 0)
          .slice(-FAILURE_HINTS_KEPT)
          .map(({ i }) => `op${i}`);
        expect((s.run.failure_hints ?? []).map((f) => f.op_id)).toEqual(expected);
        for (const f of s.run.failure_hints ?? []) {
          expect(f.hints.length).toBe(hintCounts[Number(f.op_id.slice(2))]);
          expect(f.failure_class).toBe("wrong_value");
        }
        expect(emitted.filter((t) => t === "task.observer.memory_hints")).toHaveLength(
          hintCounts.filter((n) => n > 0).length,
        );
        expect(emitted.filter((t) => t === "task.failed")).toHaveLength(hintCounts.length);
      }),
      { numRuns: 50 },
    );
  });

  it("logs run.observer.memory_hints after run.started when the run starts with hints, and nothing without", () => {
    const hint = { id: "m1", namespace: "team/team-fh/org", class: "semantic", text: "lesson", score: 0.7 };
    const start = (hints: (typeof hint)[]) =>
      reduce(
        null,
        {
          type: "create",
          actor,
          run_id: "run_rh",
          kind: "agent",
          goal: "extract invoices",
          template: null,
          skills: ["invoice-extract"],
          budget: { input_tokens: 10, output_tokens: 10, total_tokens: null },
          hints,
          snapshot: emptySnapshot(0),
        },
        0,
      );
    const withHints = start([hint]);
    if (!withHints.ok) throw new Error("create failed");
    expect(withHints.effects.events.map((e) => e.type)).toEqual(["run.started", "run.observer.memory_hints"]);
    expect(withHints.effects.events[1]).toMatchObject({
      query: "extract invoices invoice-extract",
      hints: [{ id: "m1", namespace: "team/team-fh/org", score: 0.7 }],
    });
    const without = start([]);
    if (!without.ok) throw new Error("create failed");
    expect(without.effects.events.map((e) => e.type)).toEqual(["run.started"]);
  });
});
