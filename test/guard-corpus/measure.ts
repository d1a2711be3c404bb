// Recall and precision of a guard over the labelled corpus, per category and overall (shared by the corpus test and the bench).
import type { CorpusItem } from "./corpus";

export type CategoryScore = { category: string; n: number; refused: number };
export type CorpusScore = {
  categories: CategoryScore[];
  truePositives: number;
  falseNegatives: number;
  falsePositives: number;
  trueNegatives: number;
  recall: number;
  precision: number;
  missed: CorpusItem[];
  wronglyRefused: { item: CorpusItem; ruleIds: string[] }[];
};

/** Runs `refuses` over every item: a refused positive is a true positive, a refused benign item a false positive. */
export async function scoreCorpus(
  items: CorpusItem[],
  refuses: (text: string) => Promise<{ refused: boolean; ruleIds: string[] }>,
): Promise<CorpusScore> {
  const byCategory = new Map<string, CategoryScore>();
  const missed: CorpusItem[] = [];
  const wronglyRefused: CorpusScore["wronglyRefused"] = [];
  let tp = 0;
  let fp = 0;
  for (const item of items) {
    const verdict = await refuses(item.text);
    const c = byCategory.get(item.category) ?? { category: item.category, n: 0, refused: 0 };
    c.n++;
    if (verdict.refused) c.refused++;
    byCategory.set(item.category, c);
    if (item.refuse && verdict.refused) tp++;
    else if (item.refuse) missed.push(item);
    else if (verdict.refused) {
      fp++;
      wronglyRefused.push({ item, ruleIds: verdict.ruleIds });
    }
  }
  const positives = items.filter((i) => i.refuse).length;
  const negatives = items.length - positives;
  return {
    categories: [...byCategory.values()],
    truePositives: tp,
    falseNegatives: positives - tp,
    falsePositives: fp,
    trueNegatives: negatives - fp,
    recall: positives ? tp / positives : 1,
    precision: tp + fp ? tp / (tp + fp) : 1,
    missed,
    wronglyRefused,
  };
}
