// Property tests of the pure run reducer: random command sequences keep the lease, gate, event and timer invariants.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_ACTIVE_GATE_RULES } from "../gates/rules";
import { DEFAULT_COMPILED } from "../policy/team-policy-cache";
import type { Actor, Command, Effects, RunState } from "./model";
import { nextDeadline, reduce } from "./reducer";
import { emptySnapshot } from "./snapshot";

const TEAM = "team-p";
const actor = (subject: string): Actor => ({ team_id: TEAM, subject });
const policy = { compiled: DEFAULT_COMPILED, ceiling: "enforce" as const };
const ORDERS = ["o1", "o2", "o3"];
const SUBJECTS = ["alice", "bob", "carol"];
const CLASSES = [
  "rate_limit",
  "transient",
  "timeout",
  "schema_invalid",
  "wrong_value",
  "capability_missing",
  "tool_error",
  "phase_stall",
  "weird",
  null,
];
const KEYS = ["wrong_value", "schema_invalid", "budget_increase", "dead_letter_reissue", "mystery"];

type Step = { dt: number; make: (s: RunState) => Command };

/** The command that creates the test's run `run_p`. */
const createCommand = (now = 1): Command => ({
  type: "create",
  actor: actor("alice"),
  run_id: "run_p",
  kind: "agent",
  goal: "g",
  template: null,
  skills: ["s"],
  budget: { input_tokens: 800, output_tokens: 200, total_tokens: null },
  hints: [],
  snapshot: emptySnapshot(now),
});

const create = (now: number): RunState => {
  const r = reduce(null, createCommand(now), now);
  if (!r.ok) throw new Error("create failed");
  return r.state;
};

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc
    .record({ dt: fc.integer({ min: 0, max: 40_000 }), order: pick(ORDERS), who: pick(SUBJECTS) })
    .map(({ dt, order, who }) => ({
      dt,
      make: (): Command => ({
        type: "add_order",
        actor: actor(who),
        order: {
          order_id: order,
          task_id: `t-${order}`,
          goal: "g",
          input_json: {},
          output_schema_id: "s",
          timeout_sec: 5,
        },
        skill: null,
      }),
    })),
  fc
    .record({ dt: fc.integer({ min: 0, max: 40_000 }), order: pick(ORDERS), n: fc.nat(1000) })
    .map(({ dt, order, n }) => ({
      dt,
      make: (): Command => ({
        type: "lease",
        actor: actor("alice"),
        order_id: order,
        worker_id: "w",
        lease_id: `lease-${n}`,
      }),
    })),
  fc
    .record({ dt: fc.integer({ min: 0, max: 40_000 }), order: pick(ORDERS), stale: fc.boolean() })
    .map(({ dt, order, stale }) => ({
      dt,
      make: (s: RunState): Command => {
        const o = s.orders[order];
        return {
          type: "heartbeat",
          actor: actor("alice"),
          order_id: order,
          lease_id: o?.lease?.lease_id ?? "none",
          epoch: Math.max(1, (o?.epoch ?? 1) - (stale ? 1 : 0)),
        };
      },
    })),
  fc
    .record({
      dt: fc.integer({ min: 0, max: 40_000 }),
      order: pick(ORDERS),
      outcome: pick(["PASS", "DECLINE", "ERROR"] as const),
      fcls: pick(CLASSES),
      op: fc.nat(30),
      tin: fc.oneof(fc.constant(100), fc.integer({ min: 0, max: 1000 })),
      stale: fc.boolean(),
    })
    .map(({ dt, order, outcome, fcls, op, tin, stale }) => ({
      dt,
      make: (s: RunState): Command => {
        const o = s.orders[order];
        return {
          type: "complete",
          actor: actor("alice"),
          order_id: order,
          lease_id: o?.lease?.lease_id ?? "none",
          epoch: Math.max(1, (o?.epoch ?? 1) - (stale ? 1 : 0)),
          op_id: `op-${op}`,
          digest: `${order}|${outcome}|${fcls}|${tin}`,
          outcome,
          failure_class: fcls,
          tokens_in: tin,
          tokens_out: 10,
          output: null,
          policy,
          gate_rules: DEFAULT_ACTIVE_GATE_RULES,
          failure_hints: [],
        };
      },
    })),
  fc
    .record({
      dt: fc.integer({ min: 0, max: 200_000 }),
      key: pick(KEYS),
      op: fc.nat(30),
      who: pick(SUBJECTS),
      pct: fc.integer({ min: 1, max: 40 }),
    })
    .map(({ dt, key, op, who, pct }) => ({
      dt,
      make: (s: RunState): Command => {
        const dl = Object.values(s.deadLetters).find((d) => d.resolved_at === null);
        return {
          type: "open_gate",
          actor: actor(who),
          op_id: key === "dead_letter_reissue" && dl ? dl.op_id : `op-${op}`,
          policy_key: key,
          context: key === "budget_increase" ? { increase_pct: pct } : {},
          gate_rules: DEFAULT_ACTIVE_GATE_RULES,
        };
      },
    })),
  fc
    .record({
      dt: fc.integer({ min: 0, max: 200_000 }),
      key: pick(KEYS),
      op: fc.nat(30),
      who: pick(SUBJECTS),
      decision: pick(["approve_retry", "approve_skip", "approve_abort", "deny", "auto_allow"] as const),
    })
    .map(({ dt, key, op, who, decision }) => ({
      dt,
      make: (): Command => ({
        type: "decide_gate",
        actor: actor(who),
        deploy_approvers: [],
        op_id: `op-${op}`,
        policy_key: key,
        decision,
        note: null,
      }),
    })),
  fc.integer({ min: 0, max: 400_000 }).map((dt) => ({ dt, make: () => ({ type: "tick" }) as Command })),
  fc
    .integer({ min: 0, max: 1000 })
    .map((dt) => ({ dt, make: () => ({ type: "stop", actor: actor("bob"), reason: null }) as Command })),
);

type Trace = { states: RunState[]; effects: Effects[]; errors: number };

function play(steps: Step[], start = 1_800_000_000_000): Trace {
  let now = start;
  let state = create(now);
  const trace: Trace = { states: [state], effects: [], errors: 0 };
  for (const step of steps) {
    now += step.dt;
    const r = reduce(state, step.make(state), now);
    if (!r.ok) {
      trace.errors++;
      continue;
    }
    state = r.state;
    trace.states.push(state);
    trace.effects.push(r.effects);
  }
  return trace;
}

const runs = fc.array(stepArb, { minLength: 1, maxLength: 60 });

describe("reduce (properties)", () => {
  it("is deterministic: the same commands at the same times give the same states and effects", () => {
    fc.assert(
      fc.property(runs, (steps) => {
        expect(play(steps)).toEqual(play(steps));
      }),
      { numRuns: 150 },
    );
  });

  it("keeps leases consistent: only LEASED orders hold a lease, at the order's epoch; epochs never go back", () => {
    fc.assert(
      fc.property(runs, (steps) => {
        const { states } = play(steps);
        const lastEpoch = new Map<string, number>();
        for (const s of states) {
          for (const o of Object.values(s.orders)) {
            if (o.status === "LEASED") {
              expect(o.lease?.epoch).toBe(o.epoch);
              expect(o.lease!.expires_at).toBeGreaterThan(o.lease!.granted_at);
            } else expect(o.lease).toBeNull();
            expect(o.epoch).toBeGreaterThanOrEqual(lastEpoch.get(o.order_id) ?? 0);
            lastEpoch.set(o.order_id, o.epoch);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("decides a gate at most once; hard gates never by the timer; nobody decides a gate they opened", () => {
    fc.assert(
      fc.property(runs, (steps) => {
        const { states, effects } = play(steps);
        const decided = new Map<string, string>();
        for (const s of states) {
          for (const g of Object.values(s.gates)) {
            if (g.status === "pending") {
              expect(decided.has(g.gate_id)).toBe(false);
              continue;
            }
            const key = `${g.status}|${g.decided_by}|${g.decided_at}`;
            expect(decided.get(g.gate_id) ?? key).toBe(key);
            decided.set(g.gate_id, key);
            if (g.decided_by === "timer") {
              expect(g.kind).toBe("soft");
              expect(g.decided_at).toBeGreaterThanOrEqual(g.deadline_at as number);
            }
            if (g.decided_by !== "policy" && g.decided_by !== "timer" && g.decision !== "approve_abort") {
              expect(g.decided_by).not.toBe(g.opened_by);
            }
          }
        }
        const approvals = effects.flatMap((e) => e.records).filter((r) => r.t === "approval");
        expect(new Set(approvals.map((r) => (r.t === "approval" ? r.row.dedupe_key : ""))).size).toBe(approvals.length);
      }),
      { numRuns: 200 },
    );
  });

  it("numbers events 1, 2, 3… with unique, run-derived ids", () => {
    fc.assert(
      fc.property(runs, (steps) => {
        const { states, effects } = play(steps);
        void states;
        const events = effects.flatMap((e) => e.events);
        const seqs = events.map((e) => e.seq);
        expect(seqs).toEqual(seqs.map((_, i) => i + 2)); // 1 is run.started
        expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
        for (const e of events) expect(e.event_id).toBe(`evt_run_p_${e.seq}`);
      }),
      { numRuns: 150 },
    );
  });

  it("leaves nothing due after a tick, and a second tick at the same time changes nothing", () => {
    fc.assert(
      fc.property(runs, fc.integer({ min: 0, max: 600_000 }), (steps, later) => {
        const { states } = play(steps);
        const last = states.at(-1) as RunState;
        const now = last.run.updated_at + later;
        const first = reduce(last, { type: "tick" }, now);
        if (!first.ok) throw new Error("tick failed");
        const deadline = nextDeadline(first.state);
        if (deadline !== null) expect(deadline).toBeGreaterThan(now);
        const second = reduce(first.state, { type: "tick" }, now);
        if (!second.ok) throw new Error("tick failed");
        expect(second.state).toEqual(first.state);
        expect(second.effects).toEqual({ events: [], records: [], activations: [], board: [] });
      }),
      { numRuns: 200 },
    );
  });

  it("ends a run at most once per settlement and only with COMPLETE, DEAD_LETTER or STOPPED", () => {
    fc.assert(
      fc.property(runs, (steps) => {
        const { states, effects } = play(steps);
        for (let i = 0; i < effects.length; i++) {
          const ended = (effects[i] as Effects).events.filter((e) => e.type === "run.completed");
          expect(ended.length).toBeLessThanOrEqual(1);
          const after = states[i + 1] as RunState;
          for (const e of ended) {
            expect(["COMPLETE", "DEAD_LETTER", "STOPPED"]).toContain(e.outcome);
            expect(after.run.status).toBe(e.outcome);
          }
        }
        const final = states.at(-1) as RunState;
        if (final.run.status === "STOPPED") {
          expect(Object.values(final.orders).every((o) => o.status !== "LEASED")).toBe(true);
          expect(Object.values(final.gates).every((g) => g.status !== "pending")).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("reduce (examples)", () => {
  it("refuses commands on a run that does not exist or belongs to another team", () => {
    const s = create(1);
    expect(reduce(null, { type: "tick" }, 1)).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(reduce(s, { type: "stop", actor: { team_id: "other", subject: "x" }, reason: null }, 2)).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(
      reduce(s, { type: "stop", actor: { team_id: TEAM, subject: "x", run_id: "run_other" }, reason: null }, 2),
    ).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
  });

  it("returns a step's expected failure as that failure, with the run unchanged and no effects", () => {
    const s = create(1);
    const order = (order_id: string): Command => ({
      type: "add_order",
      actor: actor("alice"),
      order: { order_id, task_id: `t-${order_id}`, goal: "g", input_json: {}, output_schema_id: "s", timeout_sec: 5 },
      skill: null,
    });
    const added = reduce(s, order("o1"), 2);
    if (!added.ok) throw new Error("add_order failed");
    // a heartbeat on an order nobody leased: the step answers conflict
    const beat: Command = { type: "heartbeat", actor: actor("alice"), order_id: "o1", lease_id: "none", epoch: 1 };
    const refused = reduce(added.state, beat, 3);
    expect(refused).toEqual({ ok: false, error: { code: "conflict", message: expect.stringContaining("o1") } });
    // a stopped run takes no more orders
    const stopped = reduce(added.state, { type: "stop", actor: actor("alice"), reason: null }, 4);
    if (!stopped.ok) throw new Error("stop failed");
    expect(reduce(stopped.state, order("o2"), 5)).toEqual({
      ok: false,
      error: { code: "conflict", message: "run is stopped" },
    });
  });

  it("refuses to create a run that already exists, and creates one where there is none", () => {
    const s = create(1);
    const again = reduce(s, createCommand(), 2);
    expect(again).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect(reduce(null, createCommand(), 2)).toMatchObject({ ok: true, state: { run: { run_id: "run_p" } } });
  });
});
