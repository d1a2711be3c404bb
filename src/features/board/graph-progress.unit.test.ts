// Graph progress: counts by state, the failing chain behind each dead letter, and the one-line text Slack shows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { graphProgress, graphProgressText, type ProgressItem } from "./graph-progress";

const it_ = (item_id: string, state: string, depends_on: string[] = [], skipped_by?: string): ProgressItem => ({
  item_id,
  state,
  depends_on,
  ...(skipped_by ? { skipped_by } : {}),
});

/** A chain a → b → c → … where item k dead-letters and everything after it is skipped by its predecessor. */
const chain = fc
  .integer({ min: 1, max: 30 })
  .chain((n) =>
    fc
      .integer({ min: 0, max: n - 1 })
      .map((k) =>
        Array.from({ length: n }, (_, i) =>
          it_(
            `i${i}`,
            i < k ? "passed" : i === k ? "dead_letter" : "skipped",
            i ? [`i${i - 1}`] : [],
            i > k ? `i${i - 1}` : undefined,
          ),
        ),
      ),
  );

describe("graphProgress", () => {
  it("counts every item once and puts every skip behind the dead letter in its chain, in order", () => {
    fc.assert(
      fc.property(chain, (items) => {
        const p = graphProgress(items);
        expect(Object.values(p.by_state).reduce((a, b) => a + b, 0)).toBe(items.length);
        const k = items.findIndex((i) => i.state === "dead_letter");
        expect(p.passed).toBe(k);
        expect(p.failing).toEqual([{ item_id: `i${k}`, skipped: items.slice(k + 1).map((i) => i.item_id) }]);
      }),
    );
  });

  it("keeps each dead letter's chain apart and follows skips through skips", () => {
    const items = [
      it_("a", "dead_letter"),
      it_("b", "dead_letter"),
      it_("a1", "skipped", ["a"], "a"),
      it_("a2", "skipped", ["a1"], "a1"),
      it_("b1", "skipped", ["b"], "b"),
      it_("c", "cancelled"),
    ];
    expect(graphProgress(items).failing).toEqual([
      { item_id: "a", skipped: ["a1", "a2"] },
      { item_id: "b", skipped: ["b1"] },
    ]);
  });
});

describe("graphProgressText", () => {
  it("says passed of total, what is in flight and the failing item with its skipped chain", () => {
    expect(
      graphProgressText([
        it_("extract-a", "passed"),
        it_("persist-a", "leased", ["extract-a"]),
        it_("extract-b", "dead_letter"),
        it_("persist-b", "skipped", ["extract-b"], "extract-b"),
      ]),
    ).toBe("1/4 items passed · 1 leased · 1 dead_letter · 1 skipped — failing: extract-b (skipped: persist-b)");
    expect(graphProgressText([it_("x", "passed")])).toBe("1/1 items passed");
    expect(graphProgressText([])).toBe("");
  });

  it("names at most five skipped items and says how many more", () => {
    const items = [
      it_("root", "dead_letter"),
      ...Array.from({ length: 8 }, (_, i) => it_(`s${i}`, "skipped", ["root"], "root")),
    ];
    expect(graphProgressText(items)).toContain("(skipped: s0, s1, s2, s3, s4 and 3 more)");
  });
});
