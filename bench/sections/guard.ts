// Bench: the write guard in-process on its own corpus (test/guard-corpus): recall and precision per category and overall, cost per KiB, and the write-path row.
import { scanFields } from "../../src/features/memory/guard/guard";
import { guardCorpus } from "../../test/guard-corpus/corpus";
import { scoreCorpus } from "../../test/guard-corpus/measure";
import { guardRows } from "../guard";
import type { BenchSection, Row } from "../harness";

const refuses = async (text: string) => {
  const v = await scanFields([{ path: "text", value: text }]);
  return { refused: !v.ok, ruleIds: v.ok ? [] : v.ruleIds };
};

/** Microseconds of scanFields per KiB of corpus text: the median of three passes over every item. */
async function microsecondsPerKiB(texts: string[]): Promise<number> {
  const kib = texts.reduce((n, t) => n + new TextEncoder().encode(t).length, 0) / 1024;
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    for (const t of texts) await scanFields([{ path: "text", value: t }]);
    runs.push(((performance.now() - start) * 1000) / kib);
  }
  return runs.sort((a, b) => a - b)[1] as number;
}

export const guardSection: BenchSection = {
  name: "guard",
  async run() {
    const items = guardCorpus();
    const score = await scoreCorpus(items, refuses);
    const rows: Row[] = score.categories.map((c) => {
      const benign = c.category.startsWith("benign.");
      const rate = c.refused / c.n;
      return {
        section: "guard",
        metric: `${benign ? "refused (false positives)" : "recall"} ${c.category} (${c.refused}/${c.n})`,
        value: Number(rate.toFixed(4)),
        unit: "ratio",
        target: benign ? "≤ 0.03" : "≥ 0.97",
        pass: benign ? rate <= 0.03 : rate >= 0.97,
      };
    });
    rows.push(
      {
        section: "guard",
        metric: `recall, whole corpus (${score.truePositives}/${score.truePositives + score.falseNegatives})`,
        value: Number(score.recall.toFixed(4)),
        unit: "ratio",
        target: "≥ 0.99",
        pass: score.recall >= 0.99,
      },
      {
        section: "guard",
        metric: `precision, whole corpus (${score.falsePositives} benign of ${score.trueNegatives + score.falsePositives} refused)`,
        value: Number(score.precision.toFixed(4)),
        unit: "ratio",
        target: "≥ 0.99",
        pass: score.precision >= 0.99,
      },
      {
        section: "guard",
        metric: `scanFields() cost per KiB of corpus text (${items.length} items, median of 3 passes)`,
        value: Number((await microsecondsPerKiB(items.map((i) => i.text))).toFixed(0)),
        unit: "µs/KiB",
      },
      ...(await guardRows()),
    );
    return rows;
  },
};
