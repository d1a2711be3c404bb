// Bench: MemRL decisions in-process against a plain Map lookup, and POST /v1/policy/decide against the bare route.
import { evaluatorRows } from "../evaluator";
import { alternateAll, BARE_PATH, type BenchSection, type LoadResult, load } from "../harness";

export const policySection: BenchSection = {
  name: "policy",
  async run({ server, token }) {
    const pure = evaluatorRows();

    const auth = {
      authorization: `Bearer ${await token("bench-team", ["policy:decide"])}`,
      "content-type": "application/json",
    };
    const body = JSON.stringify({ memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 });
    const [bare, health, decideHttp] = (await alternateAll(3, [
      () => load(`${server.url}${BARE_PATH}`, { seconds: 4 }),
      () => load(`${server.url}/healthz`, { seconds: 4 }),
      () => load(`${server.url}/v1/policy/decide`, { method: "POST", headers: auth, body, seconds: 4 }),
    ])) as [LoadResult, LoadResult, LoadResult];
    if (decideHttp.non2xx > 0) throw new Error(`decide answered ${decideHttp.non2xx} non-2xx responses`);
    return [
      ...pure,
      { section: "policy", metric: "GET /__bench/bare (HTTP ceiling)", value: bare.rps, unit: "req/s" },
      { section: "policy", metric: "GET /__bench/bare p99", value: bare.p99, unit: "ms" },
      {
        section: "policy",
        metric: "GET /healthz",
        value: health.rps,
        unit: "req/s",
        ceiling: bare.rps,
        ratio: health.rps / bare.rps,
      },
      {
        section: "policy",
        metric: "POST /v1/policy/decide",
        value: decideHttp.rps,
        unit: "req/s",
        ceiling: bare.rps,
        ratio: decideHttp.rps / bare.rps,
        target: "≥ 0.85× bare route",
        pass: decideHttp.rps / bare.rps >= 0.85,
      },
      {
        section: "policy",
        metric: "POST /v1/policy/decide p99",
        value: decideHttp.p99,
        unit: "ms",
        ceiling: bare.p99,
        ratio: decideHttp.p99 / bare.p99,
        target: "≤ 2× bare route p99",
        pass: decideHttp.p99 <= 2 * bare.p99,
      },
      { section: "policy", metric: "GET /healthz p99", value: health.p99, unit: "ms" },
    ];
  },
};
