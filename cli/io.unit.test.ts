// The CLI's --pretty output (pure): tables never wider than 100 columns, times as local ISO with the zone and relative.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitColumns, PRETTY_COLUMNS, pretty, table } from "./io.ts";

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

describe("--pretty tables", () => {
  it("fit 100 columns however long the values, and never cut an id", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gate_id: fc.stringMatching(/^gate_[0-9a-f]{32}$/),
            policy_key: fc.string({ maxLength: 40 }),
            reason: fc.string({ maxLength: 120 }),
            status: fc.string({ maxLength: 12 }),
            opened_by: fc.string({ maxLength: 30 }),
            digest: fc.string({ maxLength: 70 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (rows) => {
          const out = table(rows);
          for (const line of out.split("\n")) expect(line.length).toBeLessThanOrEqual(PRETTY_COLUMNS);
          for (const r of rows) expect(out).toContain(r.gate_id);
        },
      ),
    );
  });

  it("drops columns from the right when cutting is not enough, and says which", () => {
    const names = ["run_id", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"];
    const { shown } = fitColumns(
      names,
      names.map(() => 20),
    );
    expect(shown[0]).toBe(0);
    expect(shown.length).toBeLessThan(names.length);
    const row = Object.fromEntries(names.map((n) => [n, "x".repeat(20)]));
    expect(table([row]).split("\n").at(-1)).toMatch(/^\(\d+ more columns: .*k; without --pretty, JSON has them all\)$/);
  });

  it("marks a cut value with …", () => {
    const out = table([{ run_id: "r".repeat(60), goal: "g".repeat(80), status: "RUNNING" }]);
    expect(out).toContain("…");
    expect(Math.max(...out.split("\n").map((l) => l.length))).toBeLessThanOrEqual(100);
  });
});

describe("--pretty times", () => {
  it("shows *_at fields (ms or ISO) as local ISO to the second with the zone, and relative to now", () => {
    const out = pretty(
      { run_id: "r1", created_at: NOW - 200_000, expires_at: "2026-11-27T12:01:12.345Z", count: 5 },
      NOW,
      () => 60,
    );
    expect(out).toContain("2026-11-27T12:56:40+01:00 (3m 20s ago)");
    expect(out).toContain("2026-11-27T13:01:12+01:00 (in 1m 12s)");
    expect(out).toContain("count       5");
    expect(out).not.toMatch(/\.\d{3}/);
  });

  it("applies to table rows too", () => {
    expect(pretty([{ gate_id: "g1", opened_at: NOW - 5000 }], NOW, () => 0)).toContain("2026-11-27T11:59:55Z (5s ago)");
  });
});
