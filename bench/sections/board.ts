// Bench: the work board's dispatch — 100 runs × 10 ready items, 16 workers pulling POST /v1/orders/lease-next and
// completing — leases/s against the bare route in the same run, lease-next latency, fairness across runs; then chains
// of dependent items, for the time from an item's release (its dependency's completion answered) to its lease.
import { BARE_PATH, type BenchSection, load, percentile, type Row, startMiniflareServer } from "../harness";

const TEAM = "bench-board";
const RUNS = 100;
const ITEMS = 10;
const WORKERS = 16;
/** the fairness window: the first leases, while every run still has ready items */
const WINDOW = RUNS * 5;
/** the ready → leased phase: runs of CHAIN items, each depending on the one before, one polling worker per run */
const CHAINS = 16;
const CHAIN = 6;
// limits high enough that nothing is refused: the rows measure dispatch, not the limiter
const SQL = `INSERT INTO team_limit (team_id, route_class, per_team, per_subject, period_s, updated_at) VALUES ('${TEAM}', 'runs', 1000000000, 1000000000, 60, 0)`;

export const boardSection: BenchSection = {
  name: "board",
  async run({ token }) {
    const server = await startMiniflareServer({ sql: SQL });
    try {
      const post = async (tok: string, path: string, body: unknown) => {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${tok}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return {
          status: res.status,
          json: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>),
        };
      };
      const creator = await token(TEAM, ["runs:write"]);
      for (let r = 0; r < RUNS; r++) {
        const items = Array.from({ length: ITEMS }, (_, i) => ({
          item_id: `i${i}`,
          goal: `item ${i}`,
          input_json: {},
          output_schema_id: "out.v1",
          timeout_sec: 60,
        }));
        const res = await post(creator, "/v1/runs", { goal: `bench ${r}`, items });
        if (res.status !== 201) throw new Error(`create run → ${res.status}`);
      }
      const order: string[] = [];
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: WORKERS }, async (_, w) => {
          const tok = await token(`${TEAM}`, ["runs:write"]);
          for (;;) {
            const t0 = performance.now();
            const l = await post(tok, "/v1/orders/lease-next", { worker_id: `w${w}` });
            latencies.push(performance.now() - t0);
            if (l.status === 204) return;
            if (l.status !== 200 || !l.json) throw new Error(`lease-next → ${l.status}`);
            order.push(await completeLeased(post, tok, l.json));
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      if (order.length !== RUNS * ITEMS) throw new Error(`leased ${order.length} of ${RUNS * ITEMS}`);
      const perRun = new Map<string, number>();
      for (const run of order.slice(0, WINDOW)) perRun.set(run, (perRun.get(run) ?? 0) + 1);
      const counts = [...perRun.values()];
      const fairness = perRun.size < RUNS ? Number.POSITIVE_INFINITY : Math.max(...counts) / Math.min(...counts);
      const readyToLeased = (await chainLatencies(post, await token(TEAM, ["runs:write"]))).sort((a, b) => a - b);
      const bare = await load(`${server.url}${BARE_PATH}`, { seconds: 4, connections: WORKERS });
      const leasesPerS = order.length / seconds;
      const sorted = latencies.sort((a, b) => a - b);
      return [
        {
          section: "board",
          metric: `lease-next + complete, ${RUNS} runs × ${ITEMS} items, ${WORKERS} workers`,
          value: leasesPerS,
          unit: "leases/s",
          ceiling: bare.rps,
          ratio: leasesPerS / bare.rps,
          target: "reported (against the bare route, same run)",
        },
        { section: "board", metric: "lease-next latency p50", value: percentile(sorted, 50), unit: "ms" },
        { section: "board", metric: "lease-next latency p99", value: percentile(sorted, 99), unit: "ms" },
        {
          section: "board",
          metric: `ready → leased p50, ${CHAINS} chains × ${CHAIN} dependent items`,
          value: percentile(readyToLeased, 50),
          unit: "ms",
        },
        { section: "board", metric: "ready → leased p99", value: percentile(readyToLeased, 99), unit: "ms" },
        {
          section: "board",
          metric: `fairness: max ÷ min leases per run over the first ${WINDOW}`,
          value: fairness,
          unit: "×",
          target: "≤ 1.25",
          pass: fairness <= 1.25,
        },
        // by the code path, not counted: route → BoardDO.leaseNext → RunDO.lease → (outbox) BoardDO.sync
        { section: "board", metric: "Durable Object calls per lease (by code path)", value: 3, unit: "calls" },
        // the run's outbox batch (order and run rows) after the lease; the board reads no D1
        { section: "board", metric: "D1 batches per lease (by code path)", value: 1, unit: "batches" },
      ] satisfies Row[];
    } finally {
      await server.stop();
    }
  },
};

type Post = (
  tok: string,
  path: string,
  body: unknown,
) => Promise<{ status: number; json: Record<string, unknown> | null }>;

/** Completes the order a lease-next answer handed out (PASS) and returns its run id. */
async function completeLeased(post: Post, tok: string, lease: Record<string, unknown>): Promise<string> {
  const { run_id, order_id, lease_id, epoch } = lease as Record<string, string>;
  const c = await post(tok, `/v1/runs/${run_id}/orders/${order_id}/complete`, {
    lease_id,
    epoch,
    op_id: `op-${run_id}-${order_id}`,
    outcome: "PASS",
  });
  if (c.status !== 200) throw new Error(`complete → ${c.status}`);
  return run_id as string;
}

/**
 * CHAINS runs of CHAIN items, each depending on the one before, and one worker per run that leases, completes and
 * polls lease-next again at once: each dependent item's latency is from the moment its dependency's completion was
 * answered (it is released then) to the answer of the lease-next that handed it out.
 */
async function chainLatencies(post: Post, tok: string): Promise<number[]> {
  for (let r = 0; r < CHAINS; r++) {
    const items = Array.from({ length: CHAIN }, (_, i) => ({
      item_id: `c${i}`,
      goal: `chain item ${i}`,
      input_json: {},
      depends_on: i === 0 ? [] : [`c${i - 1}`],
      output_schema_id: "out.v1",
      timeout_sec: 60,
    }));
    const res = await post(tok, "/v1/runs", { goal: `bench chain ${r}`, items });
    if (res.status !== 201) throw new Error(`create chain → ${res.status}`);
  }
  const released = new Map<string, number>(); // run id → when its next item was released
  const latencies: number[] = [];
  let leased = 0;
  await Promise.all(
    Array.from({ length: CHAINS }, async (_, w) => {
      while (leased < CHAINS * CHAIN) {
        const l = await post(tok, "/v1/orders/lease-next", { worker_id: `chain-w${w}` });
        if (l.status === 204) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        const now = performance.now();
        if (l.status !== 200 || !l.json) throw new Error(`lease-next → ${l.status}`);
        leased++;
        const since = released.get(String(l.json.run_id));
        if (since !== undefined) latencies.push(now - since);
        released.set(await completeLeased(post, tok, l.json), performance.now());
      }
    }),
  );
  return latencies;
}
