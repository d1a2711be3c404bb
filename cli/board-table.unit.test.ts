// The `warden board` table: every persona's row, the persona-free items, backpressure, and never over 100 columns.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BoardAnswer, boardRows, boardText, NO_PERSONA, type PersonaAnswer } from "./board-table.ts";

const board = (over: Partial<BoardAnswer> = {}): BoardAnswer => ({
  ready: 5,
  leased: 1,
  waiting: 2,
  by_persona_priority: [
    { state: "ready", persona_id: "extractor", priority: 9, count: 2 },
    { state: "ready", persona_id: "extractor", priority: 5, count: 1 },
    { state: "leased", persona_id: "extractor", priority: 5, count: 1 },
    { state: "ready", persona_id: null, priority: 5, count: 2 },
    { state: "waiting", persona_id: null, priority: 5, count: 2 },
  ],
  oldest_ready: { run_id: "run_a", item_id: "extract-1", persona_id: "extractor", age_ms: 125_000 },
  backpressure: { on: false, ready_over: false, tokens_over: false, tokens_last_hour: 300 },
  settings: { max_ready: 500, max_tokens_per_hour: null },
  ...over,
});
const extractor: PersonaAnswer = {
  persona_id: "extractor",
  concurrency_limit: 1,
  enabled: true,
  registered: true,
  leased: 1,
  ready: 3,
  waiting: 0,
  oldest_ready_age_ms: 125_000,
};

describe("boardRows", () => {
  it("gives each persona its cap, counts, oldest wait and ready items by priority, then the persona-free items", () => {
    const rows = boardRows(board(), [
      extractor,
      { ...extractor, persona_id: "cpu", enabled: false, ready: 0, leased: 0, oldest_ready_age_ms: null },
    ]);
    expect(rows).toEqual([
      {
        persona: "extractor",
        cap: 1,
        enabled: "yes",
        leased: 1,
        ready: 3,
        waiting: 0,
        oldest_wait: "2m 5s",
        ready_by_priority: "9:2 5:1",
      },
      {
        persona: "cpu",
        cap: 1,
        enabled: "NO",
        leased: 0,
        ready: 0,
        waiting: 0,
        oldest_wait: "-",
        ready_by_priority: "-",
      },
      {
        persona: NO_PERSONA,
        cap: "-",
        enabled: "-",
        leased: 0,
        ready: 2,
        waiting: 2,
        oldest_wait: "-",
        ready_by_priority: "5:2",
      },
    ]);
  });

  it("leaves the persona-free row out when no item lacks a persona", () => {
    const only = board({ by_persona_priority: board().by_persona_priority.filter((r) => r.persona_id !== null) });
    expect(boardRows(only, [extractor]).map((r) => r.persona)).toEqual(["extractor"]);
  });
});

describe("boardText", () => {
  it("says why backpressure is on and names the oldest ready item", () => {
    const text = boardText(
      board({ backpressure: { on: true, ready_over: true, tokens_over: false, tokens_last_hour: 0 } }),
      [extractor],
    );
    expect(text).toContain("board: 5 ready, 1 leased, 2 waiting");
    expect(text).toContain("backpressure ON (ready over max_ready)");
    expect(text).toContain("oldest ready: extract-1 of run_a (persona extractor), waiting 2m 5s");
    expect(boardText(board(), [extractor])).toContain("backpressure off");
  });

  it("keeps every line within 100 columns, whatever the ids and counts", () => {
    const id = fc.string({ minLength: 1, maxLength: 128 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ persona_id: id, limit: fc.integer({ min: 1, max: 10_000 }), n: fc.nat(1e6) }), {
          maxLength: 8,
        }),
        id,
        id,
        (ps, runId, itemId) => {
          const personas = ps.map((p) => ({
            ...extractor,
            persona_id: p.persona_id,
            concurrency_limit: p.limit,
            ready: p.n,
          }));
          const text = boardText(
            board({ oldest_ready: { run_id: runId, item_id: itemId, persona_id: null, age_ms: 9e9 } }),
            personas,
          );
          for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
        },
      ),
    );
  });
});
