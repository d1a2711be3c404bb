// Bench: a lease → heartbeat → complete cycle over HTTP against the bare route, and soft-gate timer lateness over
// 100 gates while POST /v1/policy/decide runs at 8 connections on the same server.
import { mintToken } from "../../src/auth/mint";
import {
  alternate,
  BARE_PATH,
  BENCH_SECRET,
  type BenchSection,
  type LoadResult,
  load,
  percentile,
  type Row,
} from "../harness";
import { DECIDE_BODY } from "./policy";

const WORKERS = 8;
const ORDERS_PER_WORKER = 40;
const ROUNDS = 3;
const GATES = 100;
const GATE_RUNS = 10;
const SOFT_TIMEOUT_MS = 1000;

type Json = Record<string, any>;

async function post(url: string, token: string, body: unknown, method = "POST"): Promise<Json> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const order = (id: string) => ({
  order_id: id,
  task_id: `task-${id}`,
  goal: "bench",
  input_json: {},
  output_schema_id: "bench.v1",
  timeout_sec: 30,
});

/** per-stage p50 of each round, for the table */
const stageP50: Record<string, number[]> = {};

/** One round: WORKERS loops, each on its own run, each doing ORDERS_PER_WORKER full cycles; orders are posted first, untimed. */
export async function cycleRound(base: string, token: string, round: number): Promise<LoadResult> {
  const runs = await Promise.all(
    Array.from({ length: WORKERS }, () => post(`${base}/v1/runs`, token, { goal: `bench round ${round}` })),
  );
  await Promise.all(
    runs.map(async (r) => {
      for (let i = 0; i < ORDERS_PER_WORKER; i++)
        await post(`${base}/v1/runs/${r.run_id}/orders`, token, order(`o${i}`));
    }),
  );
  const latencies: number[] = [];
  const stages: Record<string, number[]> = { lease: [], heartbeat: [], complete: [] };
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    runs.map(async (r, w) => {
      for (let i = 0; i < ORDERS_PER_WORKER; i++) {
        const path = `${base}/v1/runs/${r.run_id}/orders/o${i}`;
        const t0 = performance.now();
        try {
          const lease = await post(`${path}/lease`, token, { worker_id: `bench-${w}` });
          const t1 = performance.now();
          await post(`${path}/heartbeat`, token, { lease_id: lease.lease_id, epoch: lease.epoch });
          const t2 = performance.now();
          const done = await post(`${path}/complete`, token, {
            lease_id: lease.lease_id,
            epoch: lease.epoch,
            op_id: `op-${round}-${w}-${i}`,
            outcome: "PASS",
            tokens_in: 100,
            tokens_out: 20,
          });
          stages.lease?.push(t1 - t0);
          stages.heartbeat?.push(t2 - t1);
          stages.complete?.push(performance.now() - t2);
          if (done.next !== "complete") errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  for (const [k, xs] of Object.entries(stages)) {
    xs.sort((a, b) => a - b);
    stageP50[k] = [...(stageP50[k] ?? []), percentile(xs, 50)];
  }
  return {
    rps: (WORKERS * ORDERS_PER_WORKER) / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    non2xx: errors,
  };
}

/** Team gate rules with a 1 s soft gate, activated through the policy_deploy gate like any deploy. */
async function deploySoftRule(base: string, admin: string, approver: string) {
  const current = (await (
    await fetch(`${base}/v1/policy/gates`, { headers: { authorization: `Bearer ${admin}` } })
  ).json()) as Json;
  const rules = [{ policy_key: "bench_soft", kind: "soft", timeout_ms: SOFT_TIMEOUT_MS }, ...current.rules];
  const put = await post(`${base}/v1/policy/gates`, admin, { rules }, "PUT");
  await post(`${base}/v1/approvals`, approver, {
    run_id: put.run_id,
    op_id: put.op_id,
    policy_key: "policy_deploy",
    decision: "approve_retry",
    note: "bench rule",
  });
}

async function gateLateness(base: string, worker: string, admin: string, approver: string): Promise<number[]> {
  await deploySoftRule(base, admin, approver);
  await new Promise((r) => setTimeout(r, 1100)); // other isolates' rule caches (1 s TTL)
  const runs = await Promise.all(
    Array.from({ length: GATE_RUNS }, (_, i) => post(`${base}/v1/runs`, worker, { goal: `gate bench ${i}` })),
  );
  const opened: { run_id: string; gate_id: string }[] = [];
  await Promise.all(
    runs.map(async (r, ri) => {
      for (let g = 0; g < GATES / GATE_RUNS; g++) {
        const gate = await post(`${base}/v1/runs/${r.run_id}/gates`, worker, {
          policy_key: "bench_soft",
          op_id: `op-${ri}-${g}`,
        });
        if (gate.kind !== "soft") throw new Error(`bench gate is ${gate.kind}, not soft`);
        opened.push({ run_id: r.run_id, gate_id: gate.gate_id });
        await new Promise((res) => setTimeout(res, 37 * ((g + ri) % 5))); // stagger deadlines
      }
    }),
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const gates = await Promise.all(
      opened.map(
        async (o) =>
          (await (
            await fetch(`${base}/v1/runs/${o.run_id}/gates/${o.gate_id}`, {
              headers: { authorization: `Bearer ${worker}` },
            })
          ).json()) as Json,
      ),
    );
    if (gates.every((g) => g.status === "auto_allowed"))
      return gates.map((g) => g.decided_at - g.deadline_at).sort((a, b) => a - b);
    if (Date.now() > deadline)
      throw new Error(`${gates.filter((g) => g.status === "pending").length} soft gates still pending after 30 s`);
  }
}

export const runsSection: BenchSection = {
  name: "runs",
  async run({ server }) {
    const mint = (sub: string) =>
      mintToken({
        secret: BENCH_SECRET,
        teamId: "bench-runs",
        sub,
        scopes: ["runs:write", "runs:read", "approvals:decide", "policy:admin", "policy:decide"],
      });
    const [worker, admin, approver] = await Promise.all([
      mint("bench-worker"),
      mint("bench-admin"),
      mint("bench-approver"),
    ]);
    let round = 0;
    const [bare, cycles] = await alternate(
      ROUNDS,
      () => load(`${server.url}${BARE_PATH}`, { seconds: 4 }),
      () => cycleRound(server.url, worker, round++),
    );
    if (cycles.errors > 0) throw new Error(`${cycles.errors} lease cycles failed`);
    // decide at 8 connections for as long as the gates are open, in 2 s rounds
    let gatesDone = false;
    const decideHeaders = { authorization: `Bearer ${worker}`, "content-type": "application/json" };
    const background: LoadResult[] = [];
    const decideLoad = (async () => {
      while (!gatesDone)
        background.push(
          await load(`${server.url}/v1/policy/decide`, {
            method: "POST",
            headers: decideHeaders,
            body: DECIDE_BODY,
            seconds: 2,
          }),
        );
    })();
    const lateness = await gateLateness(server.url, worker, admin, approver).finally(() => {
      gatesDone = true;
    });
    await decideLoad;
    const decideRps = background.reduce((a, r) => a + r.rps, 0) / Math.max(1, background.length);
    const rows: Row[] = [
      {
        section: "runs",
        metric: "lease→heartbeat→complete cycles (8 workers)",
        value: cycles.rps,
        unit: "cycles/s",
        // a cycle is three requests: the ceiling is the bare route at the same request rate
        ceiling: bare.rps / 3,
        ratio: cycles.rps / (bare.rps / 3),
        target: "≥ 0.50× (bare req/s ÷ 3)",
        pass: cycles.rps / (bare.rps / 3) >= 0.5,
      },
      { section: "runs", metric: "GET /__bench/bare (same rounds)", value: bare.rps, unit: "req/s" },
      { section: "runs", metric: "GET /__bench/bare p99", value: bare.p99, unit: "ms" },
      { section: "runs", metric: "cycle latency p50", value: cycles.p50, unit: "ms" },
      { section: "runs", metric: "cycle latency p99", value: cycles.p99, unit: "ms" },
      ...Object.entries(stageP50).map(([stage, xs]) => ({
        section: "runs",
        metric: `${stage} p50 (under load)`,
        value: xs.reduce((a, b) => a + b, 0) / xs.length,
        unit: "ms",
      })),
      {
        section: "runs",
        metric: `soft-gate lateness p50 (${lateness.length} gates)`,
        value: percentile(lateness, 50),
        unit: "ms",
      },
      {
        section: "runs",
        metric: `soft-gate lateness p99 (${lateness.length} gates)`,
        value: percentile(lateness, 99),
        unit: "ms",
        target: "≤ 250 ms",
        pass: percentile(lateness, 99) <= 250,
      },
      { section: "runs", metric: "POST /v1/policy/decide meanwhile (8 connections)", value: decideRps, unit: "req/s" },
      { section: "runs", metric: "soft-gate lateness max", value: lateness.at(-1) as number, unit: "ms" },
    ];
    return rows;
  },
};
