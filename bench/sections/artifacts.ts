// Bench: artifacts — 1 MiB upload and download through the Worker against the bare route in the same run (MiB/s, p99),
// and the guard's scan of text artifacts per MiB, in process.
import { createHash } from "node:crypto";
import { scanText } from "../../src/features/artifacts/upload";
import { BARE_PATH, type BenchSection, load, percentile, type Row, startMiniflareServer } from "../harness";

const TEAM = "bench-artifacts";
const MIB = 1024 * 1024;
const ROUNDS = 20;

/** a MiB of log-like text: timestamps, steps, a URL now and then (what artifacts hold), no secrets or personal data */
function logText(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `2026-11-27T10:${String(i % 60).padStart(2, "0")}:00Z step ${i} fetched https://api.acme.test/v1/items?page=${i} in ${i % 900} ms\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join("").slice(0, bytes);
}

/** Milliseconds of scanText per MiB: the median of three passes over one MiB. */
async function scanMsPerMiB(): Promise<number> {
  const bytes = new TextEncoder().encode(logText(MIB));
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await scanText(bytes);
    runs.push(performance.now() - t0);
  }
  return runs.sort((a, b) => a - b)[1] as number;
}

export const artifactsSection: BenchSection = {
  name: "artifacts",
  async run({ token }) {
    const server = await startMiniflareServer();
    try {
      const tok = await token(TEAM, ["runs:write", "runs:read"]);
      const json = async (path: string, body: unknown) => {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${tok}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return (await res.json()) as Record<string, string | number>;
      };
      const run = (await json("/v1/runs", { goal: "bench artifacts" })).run_id as string;
      const order = {
        order_id: "o1",
        task_id: "t1",
        goal: "g",
        input_json: {},
        output_schema_id: "o",
        timeout_sec: 60,
      };
      await json(`/v1/runs/${run}/orders`, order);
      const lease = await json(`/v1/runs/${run}/orders/o1/lease`, { worker_id: "bench" });
      const blob = new Uint8Array(MIB).map((_, i) => (i * 7919) % 256);
      const sha = createHash("sha256").update(blob).digest("hex");
      const headers = {
        authorization: `Bearer ${tok}`,
        "content-type": "application/octet-stream",
        "x-artifact-kind": "blob",
        "x-sha256": sha,
        "x-order-id": "o1",
        "x-lease-id": String(lease.lease_id),
        "x-lease-epoch": String(lease.epoch),
      };
      const up: number[] = [];
      const down: number[] = [];
      const ids: string[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/runs/${run}/artifacts`, { method: "POST", headers, body: blob });
        const body = (await res.json()) as { artifact_id?: string };
        up.push(performance.now() - t0);
        if (res.status !== 201 || !body.artifact_id) throw new Error(`upload → ${res.status}`);
        ids.push(body.artifact_id);
      }
      for (const id of ids) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${tok}` } });
        const got = await res.arrayBuffer();
        down.push(performance.now() - t0);
        if (res.status !== 200 || got.byteLength !== MIB) throw new Error(`download → ${res.status}`);
      }
      const bare = await load(`${server.url}${BARE_PATH}`, { seconds: 3, connections: 1 });
      const mibPerS = (ms: number[]) => (ms.length * 1000) / ms.reduce((a, b) => a + b, 0);
      const rows = (name: string, ms: number[]): Row[] => {
        const sorted = [...ms].sort((a, b) => a - b);
        return [
          { section: "artifacts", metric: `${name} 1 MiB, one at a time`, value: mibPerS(ms), unit: "MiB/s" },
          {
            section: "artifacts",
            metric: `${name} 1 MiB p99`,
            value: percentile(sorted, 99),
            unit: "ms",
            ceiling: bare.p99,
            ratio: percentile(sorted, 99) / Math.max(bare.p99, 0.001),
            target: "reported (bare route p99, same run, 1 connection)",
          },
        ];
      };
      return [
        ...rows("upload (blob, hashed, R2 put, D1 row)", up),
        ...rows("download (streamed from R2)", down),
        { section: "artifacts", metric: "bare route p99, 1 connection", value: bare.p99, unit: "ms" },
        {
          section: "artifacts",
          metric: "guard scan of a text artifact, per MiB (in process, 4 chunks)",
          value: await scanMsPerMiB(),
          unit: "ms/MiB",
        },
      ];
    } finally {
      await server.stop();
    }
  },
};
