// Model test of dispatch: random graphs, priorities, personas, failures and worker interleavings through the real run
// reducer and the board's dispatch core, against a plain sequential model of what must happen.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WorkItemV1 } from "../../../contracts/work-item.v1";
import type { BoardRow } from "../../ports/board";
import { DEFAULT_ACTIVE_GATE_RULES } from "../gates/rules";
import { DEFAULT_COMPILED } from "../policy/team-policy-cache";
import type { Command, RunState } from "../runs/model";
import { reduce } from "../runs/reducer";
import { emptySnapshot } from "../runs/snapshot";
import { type Candidate, type DispatchView, rankFor, type Worker } from "./dispatch";

const TEAM = "team-m";
const policy = { compiled: DEFAULT_COMPILED, ceiling: "enforce" as const };
const CAPS: Record<string, number> = { p1: 1, p2: 2 };
const WORKERS: Worker[] = [{}, { persona_id: "p1" }, { persona_id: "p2" }, { persona_id: "p2" }];

type Spec = { runs: WorkItemV1[][]; fails: Set<string> };

/** 1–4 runs, ≤ 50 items in all: each item depends only on earlier items of its run. */
const specArb: fc.Arbitrary<Spec> = fc
  .array(
    fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.tuple(
        ...Array.from({ length: n }, (_, i) =>
          fc.record({
            deps: fc.subarray(Array.from({ length: i }, (_, j) => j)),
            priority: fc.integer({ min: 0, max: 9 }),
            persona: fc.constantFrom(null, null, "p1", "p2"),
            fail: fc.integer({ min: 0, max: 9 }).map((x) => x < 2),
          }),
        ),
      ),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((runs) => {
    const fails = new Set<string>();
    const items = runs.map((nodes, r) =>
      nodes.map((n, i): WorkItemV1 => {
        if (n.fail) fails.add(`r${r}:i${i}`);
        return {
          item_id: `i${i}`,
          goal: "g",
          input_json: {},
          depends_on: n.deps.map((d) => `i${d}`),
          priority: n.priority,
          ...(n.persona ? { persona_id: n.persona } : {}),
          output_schema_id: "o",
          timeout_sec: 30,
        };
      }),
    );
    return { runs: items, fails };
  });

/** The plain sequential model: in dependency order, an item passes unless it fails or a dependency did not pass. */
function expected(spec: Spec): Map<string, string> {
  const out = new Map<string, string>();
  spec.runs.forEach((items, r) => {
    for (const it of items) {
      const key = `r${r}:${it.item_id}`;
      const blocked = (it.depends_on ?? []).some((d) => out.get(`r${r}:${d}`) !== "passed");
      out.set(key, blocked ? "skipped" : spec.fails.has(key) ? "dead_letter" : "passed");
    }
  });
  return out;
}

type Held = { run: string; item: string; lease_id: string; epoch: number; persona: string | null };

function simulate(spec: Spec, choices: number[]) {
  let now = 1_000_000;
  const states = new Map<string, RunState>();
  const board = new Map<string, BoardRow & { run_id: string }>();
  const apply = (runId: string, cmd: Command) => {
    const r = reduce(states.get(runId) ?? null, cmd, now++);
    if (!r.ok) throw new Error(`${cmd.type} refused: ${r.error.code} ${"message" in r.error ? r.error.message : ""}`);
    states.set(runId, r.state);
    for (const row of r.effects.board) {
      const key = `${runId}:${row.item_id}`;
      if (["passed", "dead_letter", "skipped", "cancelled"].includes(row.state)) board.delete(key);
      else board.set(key, { ...row, run_id: runId });
    }
    return r.reply as Record<string, unknown>;
  };
  spec.runs.forEach((items, r) => {
    apply(`r${r}`, {
      type: "create",
      actor: { team_id: TEAM, subject: "u" },
      run_id: `r${r}`,
      kind: "agent",
      goal: "g",
      template: null,
      skills: [],
      budget: { input_tokens: 800, output_tokens: 200, total_tokens: null },
      hints: [],
      snapshot: emptySnapshot(now),
      items,
    });
  });
  const held: Held[] = [];
  const passes = new Map<string, number>();
  const leasesByRun = new Map<string, number>();
  const fairness: string[] = [];
  let n = 0;
  for (let step = 0; step < 400; step++) {
    const choice = choices[step % choices.length] as number;
    let worker = WORKERS[choice % WORKERS.length] as Worker;
    const view: DispatchView = {
      candidates: [...board.values()]
        .filter((b) => b.state === "ready")
        .map((b): Candidate => ({ ...b, ready_at: b.ready_at ?? 0 })),
      leasedByPersona: countBy(held.filter((h) => h.persona).map((h) => h.persona as string)),
      personas: new Map(Object.entries(CAPS).map(([p, c]) => [p, { concurrency_limit: c, enabled: true }])),
      recentLeasesByRun: leasesByRun,
    };
    let ranked = rankFor(worker, view, now);
    // the chosen worker has nothing: another worker asks (every item has a worker that may take it)
    for (const w of WORKERS) {
      if (ranked.length > 0 || held.length > 0) break;
      worker = w;
      ranked = rankFor(w, view, now);
    }
    const completeFirst = held.length > 0 && (ranked.length === 0 || choice % 3 === 0);
    if (completeFirst) {
      const h = held.splice(choice % held.length, 1)[0] as Held;
      const fail = spec.fails.has(`${h.run}:${h.item}`);
      const reply = apply(h.run, {
        type: "complete",
        actor: { team_id: TEAM, subject: "w", ...(h.persona ? { persona_id: h.persona } : {}) },
        order_id: h.item,
        lease_id: h.lease_id,
        epoch: h.epoch,
        op_id: `op-${n++}`,
        digest: `d-${n}`,
        outcome: fail ? "ERROR" : "PASS",
        failure_class: fail ? "wrong_value" : null,
        tokens_in: 1,
        tokens_out: 1,
        output: { from: h.item },
        policy,
        gate_rules: DEFAULT_ACTIVE_GATE_RULES,
        failure_hints: [],
      });
      if (reply.next === "complete") passes.set(`${h.run}:${h.item}`, (passes.get(`${h.run}:${h.item}`) ?? 0) + 1);
      else expect(reply.next).toBe("dead_letter");
      continue;
    }
    const best = ranked[0];
    if (!best) break;
    // fairness: among the top priority, the chosen run had the fewest leases of the runs it could have chosen
    const top = ranked.filter((c) => c.priority === best.priority);
    const fewest = Math.min(...top.map((c) => leasesByRun.get(c.run_id) ?? 0));
    expect(leasesByRun.get(best.run_id) ?? 0).toBe(fewest);
    fairness.push(best.run_id);
    // dependencies passed in the run's own state before the lease
    const state = states.get(best.run_id) as RunState;
    for (const d of state.items[best.item_id]?.body.depends_on ?? [])
      expect(state.orders[d]?.status, `${best.item_id} leased before ${d} passed`).toBe("COMPLETE");
    const lease = apply(best.run_id, {
      type: "lease",
      actor: { team_id: TEAM, subject: "w", ...(worker.persona_id ? { persona_id: worker.persona_id } : {}) },
      order_id: best.item_id,
      worker_id: "w",
      board: true,
      lease_id: `l-${n++}`,
    });
    held.push({
      run: best.run_id,
      item: best.item_id,
      lease_id: lease.lease_id as string,
      epoch: lease.epoch as number,
      persona: best.persona_id,
    });
    leasesByRun.set(best.run_id, (leasesByRun.get(best.run_id) ?? 0) + 1);
    for (const [p, cap] of Object.entries(CAPS))
      expect(held.filter((h) => h.persona === p).length).toBeLessThanOrEqual(cap);
  }
  return { states, passes, held };
}

const countBy = (xs: string[]) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

describe("dispatch (model)", () => {
  it("leases only after deps passed, completes each item at most once, keeps caps, propagates dead letters exactly", () => {
    fc.assert(
      fc.property(specArb, fc.array(fc.nat(1000), { minLength: 1, maxLength: 50 }), (spec, choices) => {
        const { states, passes, held } = simulate(spec, choices);
        expect(held).toEqual([]);
        for (const n of passes.values()) expect(n).toBe(1);
        const want = expected(spec);
        const got = new Map<string, string>();
        for (const [runId, s] of states)
          for (const it of Object.values(s.items)) {
            const o = s.orders[it.item_id];
            got.set(
              `${runId}:${it.item_id}`,
              it.stored === "skipped"
                ? "skipped"
                : o?.status === "COMPLETE"
                  ? "passed"
                  : o?.status === "DEAD_LETTER"
                    ? "dead_letter"
                    : `unsettled:${o?.status ?? it.stored}`,
            );
          }
        expect(got).toEqual(want);
        for (const s of states.values())
          expect(s.run.status).toBe(
            [...Object.values(s.items)].some(
              (i) => i.stored === "released" && s.orders[i.item_id]?.status === "DEAD_LETTER",
            )
              ? "DEAD_LETTER"
              : "COMPLETE",
          );
      }),
      { numRuns: 150 },
    );
  });

  it("shares leases across runs of one priority within one lease of each other (max ÷ min ≤ 1.25 over 8+ rounds)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 8, max: 12 }), (runCount, perRun) => {
        const spec: Spec = {
          runs: Array.from({ length: runCount }, () =>
            Array.from({ length: perRun }, (_, i) => ({
              item_id: `i${i}`,
              goal: "g",
              input_json: {},
              output_schema_id: "o",
              timeout_sec: 30,
            })),
          ),
          fails: new Set(),
        };
        const leases = new Map<string, number>();
        const view = (now: number): DispatchView => ({
          candidates: spec.runs.flatMap((items, r) =>
            items
              .filter((_, i) => i >= (leases.get(`r${r}`) ?? 0))
              .map((it) => ({
                run_id: `r${r}`,
                item_id: it.item_id,
                priority: 5,
                persona_id: null,
                skill: null,
                ready_at: now,
                leasable_at: 0,
              })),
          ),
          leasedByPersona: new Map(),
          personas: new Map(),
          recentLeasesByRun: leases,
        });
        for (let k = 0; k < runCount * 8; k++) {
          const best = rankFor({}, view(k), k)[0] as Candidate;
          leases.set(best.run_id, (leases.get(best.run_id) ?? 0) + 1);
          const counts = Array.from({ length: runCount }, (_, r) => leases.get(`r${r}`) ?? 0);
          expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
        }
        const counts = [...leases.values()];
        expect(Math.max(...counts) / Math.min(...counts)).toBeLessThanOrEqual(1.25);
      }),
    );
  });
});
