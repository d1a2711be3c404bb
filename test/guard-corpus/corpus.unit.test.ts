// The guard against its own generated corpus: overall recall and precision ≥ 0.99 (floors that may only rise), recall ≥ 0.97 in every category.
import { describe, expect, it } from "vitest";
import { scanFields } from "../../src/features/memory/guard/guard";
import { guardCorpus } from "./corpus";
import { scoreCorpus } from "./measure";

/** Floors: raise them when the guard improves, never lower them. */
const MIN_RECALL = 0.99;
const MIN_PRECISION = 0.99;
const MIN_CATEGORY_RECALL = 0.97;
/** A benign category may lose at most this share of its items to refusals. */
const MAX_CATEGORY_FALSE_POSITIVES = 0.03;

const guardRefuses = async (text: string) => {
  const v = await scanFields([{ path: "text", value: text }]);
  return { refused: !v.ok, ruleIds: v.ok ? [] : v.ruleIds };
};

describe("guard corpus (test/guard-corpus)", () => {
  const items = guardCorpus();

  it("is deterministic, ≥ 3,000 labelled items, every category in several carriers", () => {
    expect(items.length).toBeGreaterThanOrEqual(3000);
    expect(guardCorpus()).toEqual(items);
    const carriers = new Map<string, Set<string>>();
    for (const i of items) carriers.set(i.category, (carriers.get(i.category) ?? new Set()).add(i.carrier));
    for (const [category, set] of carriers)
      if (!category.startsWith("secret.")) expect(set.size, category).toBeGreaterThanOrEqual(8);
    expect(items.filter((i) => !i.refuse).length).toBeGreaterThanOrEqual(1000);
  });

  it("refuses ≥ 99% of personal data and secrets, ≥ 97% in each category, with ≥ 99% precision", async () => {
    const score = await scoreCorpus(items, guardRefuses);
    const lines = score.categories.map((c) => `  ${c.category.padEnd(34)} ${c.refused}/${c.n}`);
    console.log(
      `guard corpus: recall ${score.recall.toFixed(4)}, precision ${score.precision.toFixed(4)} (${score.truePositives} refused, ${score.falseNegatives} missed, ${score.falsePositives} benign refused)\n${lines.join("\n")}`,
    );
    for (const m of score.missed.slice(0, 10)) console.log(`missed ${m.category}: ${m.text}`);
    for (const w of score.wronglyRefused.slice(0, 10))
      console.log(`refused ${w.item.category} (${w.ruleIds.join(",")}): ${w.item.text}`);
    expect(score.recall).toBeGreaterThanOrEqual(MIN_RECALL);
    expect(score.precision).toBeGreaterThanOrEqual(MIN_PRECISION);
    for (const c of score.categories) {
      if (c.category.startsWith("benign."))
        expect(c.refused / c.n, c.category).toBeLessThanOrEqual(MAX_CATEGORY_FALSE_POSITIVES);
      else expect(c.refused / c.n, c.category).toBeGreaterThanOrEqual(MIN_CATEGORY_RECALL);
    }
  });
});
