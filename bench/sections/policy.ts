// Bench: MemRL decisions in-process against a plain Map lookup, and POST /v1/policy/decide against GET /healthz.
import { FAILURE_CLASSES, MEMRL_MODES } from "../../contracts/memrl-policy";
import { DEFAULT_PROFILE } from "../../src/features/policy/default-profile";
import { compileProfile, type DecisionInput, decide } from "../../src/features/policy/evaluator";
import { alternate, type BenchSection, load } from "../harness";

function opsPerSecond(iterations: number, fn: (i: number) => unknown): number {
  let sink = 0;
  for (let i = 0; i < 200_000; i++) sink ^= fn(i) ? 1 : 0; // warm-up
  const start = performance.now();
  for (let i = 0; i < iterations; i++) sink ^= fn(i) ? 1 : 0;
  const seconds = (performance.now() - start) / 1000;
  if (sink === 42) console.log(""); // keep the results alive
  return iterations / seconds;
}

export const policySection: BenchSection = {
  name: "policy",
  async run({ server, token }) {
    const compiled = compileProfile(DEFAULT_PROFILE, 0);
    const inputs: DecisionInput[] = [];
    for (const memrl_mode of MEMRL_MODES)
      for (const failure_class of FAILURE_CLASSES)
        for (let attempt = 1; attempt <= 4; attempt++)
          inputs.push({ memrl_mode, failure_class, attempt, max_attempts: 3 });
    const keys = inputs.map((i) => `${i.memrl_mode}|${i.failure_class}|${i.attempt}`);
    const ceilingMap = new Map(keys.map((k, i) => [k, inputs[i]]));
    const n = inputs.length;
    const iterations = 3_000_000;
    const ceilingOps = opsPerSecond(iterations, (i) => ceilingMap.get(keys[i % n] as string));
    const decideOps = opsPerSecond(iterations, (i) =>
      decide(compiled, inputs[i % n] as DecisionInput, { ceiling: "enforce" }),
    );

    const auth = {
      authorization: `Bearer ${await token("bench-team", ["policy:decide"])}`,
      "content-type": "application/json",
    };
    const body = JSON.stringify({ memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 });
    const [health, decideHttp] = await alternate(
      3,
      () => load(`${server.url}/healthz`, { seconds: 4 }),
      () => load(`${server.url}/v1/policy/decide`, { method: "POST", headers: auth, body, seconds: 4 }),
    );
    if (decideHttp.non2xx > 0) throw new Error(`decide answered ${decideHttp.non2xx} non-2xx responses`);
    return [
      {
        section: "policy",
        metric: "decide() in-process",
        value: decideOps,
        unit: "ops/s",
        ceiling: ceilingOps,
        ratio: decideOps / ceilingOps,
        target: "≥ 0.50× Map lookup",
      },
      {
        section: "policy",
        metric: "POST /v1/policy/decide",
        value: decideHttp.rps,
        unit: "req/s",
        ceiling: health.rps,
        ratio: decideHttp.rps / health.rps,
        target: "≥ 0.85× /healthz",
      },
      { section: "policy", metric: "POST /v1/policy/decide p99", value: decideHttp.p99, unit: "ms", target: "≤ 5 ms" },
      { section: "policy", metric: "GET /healthz p99", value: health.p99, unit: "ms" },
    ];
  },
};
