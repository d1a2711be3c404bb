// Escalation of an open hard gate through the run reducer: the alarm's deadline, each level once, none once decided.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ESCALATION_AFTER_MS } from "../gates/domain";
import { DEFAULT_ACTIVE_GATE_RULES } from "../gates/rules";
import type { Actor, Command, Effects, RunState } from "./model";
import { nextDeadline, reduce } from "./reducer";
import { emptySnapshot } from "./snapshot";

const TEAM = "team-e";
const T0 = 1_800_000_000_000;
const MIN = 60_000;
const actor = (subject: string): Actor => ({ team_id: TEAM, subject });

function step(state: RunState | null, cmd: Command, now: number): { state: RunState; effects: Effects } {
  const r = reduce(state, cmd, now);
  if (!r.ok) throw new Error(`${cmd.type} failed: ${JSON.stringify(r.error)}`);
  return { state: r.state, effects: r.effects };
}

/** a run with one hard gate opened at T0 (an unknown policy key fails closed to a hard gate) */
function withHardGate(): RunState {
  const created = step(
    null,
    {
      type: "create",
      actor: actor("alice"),
      run_id: "run_e",
      kind: "agent",
      goal: "g",
      template: null,
      skills: ["s"],
      budget: { input_tokens: 800, output_tokens: 200, total_tokens: null },
      hints: [],
      snapshot: emptySnapshot(T0),
    },
    T0,
  ).state;
  const opened = step(
    created,
    {
      type: "open_gate",
      actor: actor("alice"),
      op_id: "op-1",
      policy_key: "mystery",
      context: {},
      gate_rules: DEFAULT_ACTIVE_GATE_RULES,
    },
    T0,
  ).state;
  expect(Object.values(opened.gates)[0]?.kind).toBe("hard");
  return opened;
}

const gateOf = (s: RunState) => Object.values(s.gates)[0] as NonNullable<RunState["gates"][string]>;
const escalatedIn = (e: Effects) => e.events.filter((ev) => ev.type === "gate.escalated").map((ev) => ev.level);

describe("hard gate escalation", () => {
  it("arms the alarm for level 1 at 15:00 and fires nothing at 14:59", () => {
    const s = withHardGate();
    expect(ESCALATION_AFTER_MS).toEqual({ 1: 15 * MIN, 2: 60 * MIN });
    expect(nextDeadline(s)).toBe(T0 + 15 * MIN);
    const early = step(s, { type: "tick" }, T0 + 15 * MIN - 1000);
    expect(escalatedIn(early.effects)).toEqual([]);
    expect(gateOf(early.state).escalations).toBeUndefined();
  });

  it("fires level 1 at 15:00, then level 2 at 60:00, each once, and records both on the gate", () => {
    const s = withHardGate();
    const l1 = step(s, { type: "tick" }, T0 + 15 * MIN);
    expect(escalatedIn(l1.effects)).toEqual([1]);
    expect(gateOf(l1.state).escalations).toEqual([{ level: 1, at: T0 + 15 * MIN }]);
    expect(nextDeadline(l1.state)).toBe(T0 + 60 * MIN);
    const again = step(l1.state, { type: "tick" }, T0 + 59 * MIN);
    expect(escalatedIn(again.effects)).toEqual([]);
    const l2 = step(again.state, { type: "tick" }, T0 + 60 * MIN);
    expect(escalatedIn(l2.effects)).toEqual([2]);
    expect(gateOf(l2.state).escalations).toEqual([
      { level: 1, at: T0 + 15 * MIN },
      { level: 2, at: T0 + 60 * MIN },
    ]);
    // both fired: the gate no longer holds the alarm, and a later tick pings nobody
    expect(nextDeadline(l2.state)).toBeNull();
    expect(escalatedIn(step(l2.state, { type: "tick" }, T0 + 600 * MIN).effects)).toEqual([]);
    // the event names the gate so the Slack producer can thread the ping under its card
    const ev = l1.effects.events.find((e) => e.type === "gate.escalated");
    expect(ev).toMatchObject({ gate_id: gateOf(s).gate_id, kind: "hard", policy_key: "mystery", run_id: "run_e" });
  });

  it("escalates nothing once the gate is decided", () => {
    const s = withHardGate();
    const decided = step(
      s,
      {
        type: "decide_gate",
        actor: actor("bob"),
        deploy_approvers: [],
        op_id: "op-1",
        policy_key: "mystery",
        decision: "deny",
        note: "no",
      },
      T0 + 5 * MIN,
    ).state;
    expect(nextDeadline(decided)).toBeNull();
    expect(escalatedIn(step(decided, { type: "tick" }, T0 + 90 * MIN).effects)).toEqual([]);
  });

  it("fires each level exactly once over any sequence of ticks", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120 * MIN }), { maxLength: 12 }), (times) => {
        let s = withHardGate();
        const fired: number[] = [];
        for (const t of [...times].sort((a, b) => a - b)) {
          const r = step(s, { type: "tick" }, T0 + t);
          fired.push(...(escalatedIn(r.effects) as number[]));
          s = r.state;
        }
        const last = Math.max(-1, ...times);
        const expected = [1, 2].filter((l) => last >= ESCALATION_AFTER_MS[l as 1 | 2]);
        expect(fired).toEqual(expected);
        expect(gateOf(s).escalations?.map((e) => e.level) ?? []).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });
});
