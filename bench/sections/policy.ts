// Bench: MemRL decisions in-process against a plain Map lookup, and POST /v1/policy/decide against the bare route.
import { evaluatorRows } from "../evaluator";
import { alternateAll, BARE_PATH, type BenchSection, httpRows, type LoadResult, load } from "../harness";

export const DECIDE_BODY = JSON.stringify({
  memrl_mode: "enforce",
  failure_class: "vibe_fail",
  attempt: 2,
  max_attempts: 3,
});

export const policySection: BenchSection = {
  name: "policy",
  async run({ server, token, reference }) {
    // the in-process rows do not depend on the server: measured once
    const pure = reference ? [] : evaluatorRows();
    const auth = {
      authorization: `Bearer ${await token("bench-team", ["policy:decide"])}`,
      "content-type": "application/json",
    };
    const [bare, health, decideHttp] = (await alternateAll(3, [
      () => load(`${server.url}${BARE_PATH}`, { seconds: 4 }),
      () => load(`${server.url}/healthz`, { seconds: 4 }),
      () => load(`${server.url}/v1/policy/decide`, { method: "POST", headers: auth, body: DECIDE_BODY, seconds: 4 }),
    ])) as [LoadResult, LoadResult, LoadResult];
    if (decideHttp.non2xx > 0) throw new Error(`decide answered ${decideHttp.non2xx} non-2xx responses`);
    return [
      ...pure,
      ...httpRows("policy", "GET /__bench/bare (HTTP ceiling)", bare, bare),
      ...httpRows("policy", "GET /healthz", health, bare),
      ...httpRows("policy", "POST /v1/policy/decide (decision log on)", decideHttp, bare, { minRps: 0.85, maxP99: 2 }),
    ];
  },
};
