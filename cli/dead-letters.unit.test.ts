// The bulk actions' pool (pure): every item settled once, the answers in the items' order, never more in flight than asked.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eachLimited } from "./dead-letters.ts";

describe("eachLimited", () => {
  it("settles every item once, answers in the items' order and keeps at most `limit` in flight", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(3), { maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        async (delays, limit) => {
          let inFlight = 0;
          let most = 0;
          const seen: number[] = [];
          const answers = await eachLimited(delays, limit, async (delay) => {
            const i = seen.length;
            seen.push(i);
            inFlight++;
            most = Math.max(most, inFlight);
            await new Promise((r) => setTimeout(r, delay));
            inFlight--;
            return `answer of ${delay}`;
          });
          expect(answers).toEqual(delays.map((d) => `answer of ${d}`));
          expect(seen).toHaveLength(delays.length);
          expect(most).toBeLessThanOrEqual(limit);
          if (delays.length > 0) expect(most).toBe(Math.min(limit, delays.length));
        },
      ),
      { numRuns: 40 },
    );
  });
});
