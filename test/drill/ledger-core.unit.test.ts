// The kill test's verdict: a clean count has no problem; a lost or doubled decision or memory is named.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DecisionRule, type LedgerObservation, ledgerFigures, ledgerProblems } from "./ledger-core.ts";

const RULE: DecisionRule = { bufferWindowMs: 3_000, strict: false };
const STRICT: DecisionRule = { ...RULE, strict: true };
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
    kills: [],
  };
}

describe("kill test verdict", () => {
  it("finds nothing wrong in a clean count of any size, also with unacknowledged decisions logged", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5 }), (n, extra) => {
        const o = clean(n);
        for (let i = 0; i < extra; i++) o.logged.set(`unacked_${i}`, 1);
        o.readerTotal = n + extra;
        return ledgerProblems(o, STRICT).length === 0;
      }),
    );
  });

  it("names every acknowledged decision missing from the objects", () => {
    const o = clean(5);
    o.logged.delete("dec_2");
    o.logged.delete("dec_4");
    o.readerTotal = 3;
    const problems = ledgerProblems(o, RULE);
    expect(problems.filter((p) => p.startsWith("lost decision"))).toHaveLength(2);
    expect(problems.join("\n")).toMatch(/dec_2[\s\S]*dec_4/);
  });

  it("flags a reader whose count differs from the distinct decisions in the objects", () => {
    const o = clean(4);
    o.readerTotal = 5;
    expect(ledgerProblems(o, RULE)).toEqual([expect.stringMatching(/reader counts 5, the objects hold 4/)]);
  });

  it("counts repeated lines of one decision as a figure, not a loss (readers take each id once)", () => {
    const o = clean(3);
    o.logged.set("dec_1", 3);
    expect(ledgerProblems(o, STRICT)).toEqual([]);
    expect(ledgerFigures(o, RULE)).toEqual({
      decisionsAcked: 3,
      decisionsLogged: 3,
      repeatedLines: 2,
      memoriesAcked: 3,
      lostInBuffer: 0,
    });
  });

  it("names a lost memory and a memory stored twice", () => {
    const o = clean(3);
    o.foundMemories.set("team/t/project/k-0", []);
    o.foundMemories.set("team/t/project/k-2", ["mem_2", "mem_9"]);
    const problems = ledgerProblems(o, RULE);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^lost memory: mem_0/);
    expect(problems[1]).toMatch(/^memory written 2 times in team\/t\/project\/k-2/);
  });

  it("does not take another memory in the namespace for the acknowledged one", () => {
    const o = clean(1);
    o.foundMemories.set("team/t/project/k-0", ["mem_other"]);
    expect(ledgerProblems(o, RULE)).toEqual([expect.stringMatching(/^lost memory: mem_0/)]);
  });

  it("admits a decision lost within the buffer window before a kill, counts it, and refuses it when strict", () => {
    const o = clean(6);
    // dec_2 acknowledged at T+2s, killed at T+4s (2 s later: inside 3 s); dec_5 at T+5s, no kill after it
    o.kills = [T + 4_000];
    o.logged.delete("dec_2");
    o.logged.delete("dec_5");
    o.readerTotal = 4;
    expect(ledgerProblems(o, RULE)).toEqual([expect.stringMatching(/^lost decision: dec_5/)]);
    expect(ledgerFigures(o, RULE).lostInBuffer).toBe(1);
    expect(ledgerProblems(o, STRICT)).toHaveLength(2);
    expect(ledgerFigures(o, STRICT).lostInBuffer).toBe(0);
    // a kill before the acknowledgement, or later than the window, does not explain a loss
    o.kills = [T + 1_000, T + 9_000];
    expect(ledgerProblems(o, RULE)).toHaveLength(2);
  });
});
