// Bench: the EVENTS consumer (one db.batch per queue batch vs one write per message) and the daily sweep on 50k memories.
// Both run inside the bench's wrangler dev worker (workerd + its local D1) through the /__bench/* hooks; timed here.
import type { BenchSection, Row } from "../harness";

const BATCH = 100;
const MEMORIES = 50_000;
const SEED_CHUNK = 10_000;

async function hook(url: string, path: string, body: object): Promise<{ ms: number; json: Record<string, unknown> }> {
  const start = performance.now();
  const res = await fetch(`${url}/__bench/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`bench hook ${path}: ${res.status} ${JSON.stringify(json)}`);
  return { ms: performance.now() - start, json };
}

let prefixSeq = 0;
async function consumerRate(url: string, mode: "batch" | "per-message", batches: number): Promise<number> {
  const { ms, json } = await hook(url, "consumer", { mode, batches, size: BATCH, prefix: `${mode}-${++prefixSeq}` });
  if (json.failed !== 0) throw new Error(`${json.failed} events failed in ${mode} mode`);
  return (batches * BATCH) / (ms / 1000);
}

export const learningSection: BenchSection = {
  name: "learning",
  async run({ server }) {
    const url = server.url;
    await consumerRate(url, "batch", 2); // warm-up
    await consumerRate(url, "per-message", 1);
    const batched: number[] = [];
    const single: number[] = [];
    for (let round = 0; round < 3; round++) {
      batched.push(await consumerRate(url, "batch", 10));
      single.push(await consumerRate(url, "per-message", 3));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const batchRate = mean(batched);
    const singleRate = mean(single);

    const now = Date.now();
    for (let from = 0; from < MEMORIES; from += SEED_CHUNK) {
      await hook(url, "seed-memories", { from, count: SEED_CHUNK, now });
    }
    const sweep = await hook(url, "memory-sweep", { now });
    console.error(`bench: sweep of ${MEMORIES} memories: ${JSON.stringify(sweep.json)}`);
    const rows: Row[] = [
      {
        section: "learning",
        metric: "consumer, 1 db.batch per 100 events",
        value: batchRate,
        unit: "events/s",
        ceiling: singleRate,
        ratio: batchRate / singleRate,
        target: "≥ 5× one write per message",
      },
      { section: "learning", metric: "consumer, 1 write per message", value: singleRate, unit: "events/s" },
      {
        section: "learning",
        metric: `daily memory sweep, ${MEMORIES / 1000}k memories`,
        value: sweep.ms / 1000,
        unit: "s",
      },
      {
        section: "learning",
        metric: "daily memory sweep throughput",
        value: MEMORIES / (sweep.ms / 1000),
        unit: "memories/s",
      },
    ];
    return rows;
  },
};
