// The kill test's verdict: a clean count has no problem; a lost or doubled decision or memory is named.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type LedgerObservation, ledgerFigures, ledgerProblems } from "./ledger-core.ts";

const T = 1_800_000_000_000;

/** n acknowledged decisions and memories, each logged and found exactly once */
function clean(n: number): LedgerObservation {
  const ids = Array.from({ length: n }, (_, i) => `dec_${i}`);
  const memories = Array.from({ length: n }, (_, i) => ({ namespace: `team/t/project/k-${i}`, id: `mem_${i}` }));
  return {
    ackedDecisions: new Map(ids.map((id, i) => [id, T + i * 1000])),
    logged: new Map(ids.map((id) => [id, 1])),
    readerTotal: n,
    ackedMemories: memories,
    foundMemories: new Map(memories.map((m) => [m.namespace, [m.id]])),
  };
}

describe("kill test verdict", () => {
  it("finds nothing wrong in a clean count of any size, also with unacknowledged decisions logged", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5 }), (n, extra) => {
        const o = clean(n);
        for (let i = 0; i < extra; i++) o.logged.set(`unacked_${i}`, 1);
        o.readerTotal = n + extra;
        return ledgerProblems(o).length === 0;
      }),
    );
  });

  it("names every acknowledged decision missing from the objects", () => {
    const o = clean(5);
    o.logged.delete("dec_2");
    o.logged.delete("dec_4");
    o.readerTotal = 3;
    const problems = ledgerProblems(o);
    expect(problems.filter((p) => p.startsWith("lost decision"))).toHaveLength(2);
    expect(problems.join("\n")).toMatch(/dec_2[\s\S]*dec_4/);
  });

  it("flags a reader whose count differs from the distinct decisions in the objects", () => {
    const o = clean(4);
    o.readerTotal = 5;
    expect(ledgerProblems(o)).toEqual([expect.stringMatching(/reader counts 5, the objects hold 4/)]);
  });

  it("names a decision the objects hold more than once, and counts its repeated lines", () => {
    const o = clean(3);
    o.logged.set("dec_1", 3);
    expect(ledgerProblems(o)).toEqual(["decision dec_1 is in the log 3 times"]);
    expect(ledgerFigures(o)).toEqual({
      decisionsAcked: 3,
      decisionsLogged: 3,
      repeatedLines: 2,
      memoriesAcked: 3,
      decisionsLost: 0,
    });
  });

  it("names a lost memory and a memory stored twice", () => {
    const o = clean(3);
    o.foundMemories.set("team/t/project/k-0", []);
    o.foundMemories.set("team/t/project/k-2", ["mem_2", "mem_9"]);
    const problems = ledgerProblems(o);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^lost memory: mem_0/);
    expect(problems[1]).toMatch(/^memory written 2 times in team\/t\/project\/k-2/);
  });

  it("does not take another memory in the namespace for the acknowledged one", () => {
    const o = clean(1);
    o.foundMemories.set("team/t/project/k-0", ["mem_other"]);
    expect(ledgerProblems(o)).toEqual([expect.stringMatching(/^lost memory: mem_0/)]);
  });

  it("counts every missing acknowledged decision as lost, however close to a kill it was acknowledged", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.array(fc.nat(29), { maxLength: 10 }), (n, drop) => {
        const o = clean(n);
        const missing = new Set(drop.filter((i) => i < n));
        for (const i of missing) o.logged.delete(`dec_${i}`);
        o.readerTotal = o.logged.size;
        const lost = ledgerProblems(o).filter((p) => p.startsWith("lost decision"));
        return lost.length === missing.size && ledgerFigures(o).decisionsLost === missing.size;
      }),
    );
  });
});
