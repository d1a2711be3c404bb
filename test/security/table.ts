// The security matrix's bookkeeping: one row per attack family (tried, passed, lost, duplicated, leaked) and the table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

export type Row = { row: string; tried: number; passed: number; lost: number; duplicated: number; leaked: number };

const rows = new Map<string, Row>();

/** Adds to a row: `passed` requests met the expectation; lost/duplicated/leaked count state lost, doubled or exposed. */
export function tally(row: string, outcome: Partial<Omit<Row, "row">> & { tried: number }): void {
  const r = rows.get(row) ?? { row, tried: 0, passed: 0, lost: 0, duplicated: 0, leaked: 0 };
  r.tried += outcome.tried;
  r.passed += outcome.passed ?? outcome.tried;
  r.lost += outcome.lost ?? 0;
  r.duplicated += outcome.duplicated ?? 0;
  r.leaked += outcome.leaked ?? 0;
  rows.set(row, r);
}

/** Counts one expectation: tried +1, passed +1 when `ok`. Returns ok, so tests can also assert on it. */
export function check(row: string, ok: boolean): boolean {
  tally(row, { tried: 1, passed: ok ? 1 : 0 });
  return ok;
}

export function table(): string {
  const all = [...rows.values()];
  const head = ["row", "tried", "passed", "lost", "duplicated", "leaked"];
  const width = Math.max(3, ...all.map((r) => r.row.length));
  const line = (cells: (string | number)[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(width) : String(c).padStart(i === 4 ? 10 : 6))).join("  ");
  return [line(head), ...all.map((r) => line([r.row, r.tried, r.passed, r.lost, r.duplicated, r.leaked]))].join("\n");
}

/** The rows with a failure: a try that did not pass, or anything lost, duplicated or leaked. */
export function failures(): Row[] {
  return [...rows.values()].filter((r) => r.passed !== r.tried || r.lost + r.duplicated + r.leaked > 0);
}

/** The summary of one security test file: its table printed at the end, and a last test that fails on any failed row. */
export function describeSummary(title: string): void {
  // the table is this file's: a runner that keeps modules between files (the unit project's threads) starts it empty
  beforeAll(() => rows.clear());
  afterAll(() => {
    console.log(`\n${title}\n${table()}\n`);
  });
  describe("summary", () => {
    it("has no row with a failure: every try passed, nothing lost, duplicated or leaked", () => {
      expect(failures()).toEqual([]);
    });
  });
}
