// Property test of the stale-snapshot check: older than SNAPSHOT_STALE_AFTER_MS, or behind policy memory's last update.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptySnapshot, SNAPSHOT_STALE_AFTER_MS, staleness } from "./snapshot";

const T0 = Date.UTC(2026, 10, 1);

describe("staleness", () => {
  it("is null for a fresh snapshot taken after the last update, and names the reason otherwise", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * SNAPSHOT_STALE_AFTER_MS }),
        fc.option(fc.integer({ min: -SNAPSHOT_STALE_AFTER_MS, max: SNAPSHOT_STALE_AFTER_MS }), { nil: null }),
        (age, updatedOffset) => {
          const snapshot = emptySnapshot(T0);
          const lastUpdated = updatedOffset === null ? null : new Date(T0 + updatedOffset).toISOString();
          const why = staleness(snapshot, T0 + age, lastUpdated);
          if (age > SNAPSHOT_STALE_AFTER_MS) expect(why).toMatch(/^stale_snapshot: .* h old \(limit 24 h\)/);
          else if (updatedOffset !== null && updatedOffset > 0)
            expect(why).toMatch(/^stale_snapshot: policy memory changed at /);
          else expect(why).toBeNull();
        },
      ),
    );
  });
});
