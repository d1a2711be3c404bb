// Bench: POST /v1/policy/decide with each rate-limiter adapter against the same route with limits disabled.
// Each configuration is its own local server (one per adapter), loaded in alternating rounds; Upstash goes through
// the test-only REST bridge to a local redis-server, a network hop by design, and is reported as its own row.
import { startUpstashLike } from "../../test/redis/server";
import { type BenchSection, type LoadResult, load, type Row, startMiniflareServer } from "../harness";

const TEAM = "bench-limits";
// limits high enough that nothing is refused: the rows measure the cost of counting, not of refusing
const SQL = `INSERT INTO team_limit (team_id, route_class, per_team, per_subject, period_s, updated_at) VALUES ('${TEAM}', 'decide', 1000000000, 1000000000, 60, 0)`;

/** Throughput with a limiter over throughput with limits off, measured in the same rounds: at most 10 % lost. */
export const MIN_RATIO = 0.9;
/** The Upstash config's index in `configs` (the last): reported only. */
const UPSTASH = 3;

export const limitsSection: BenchSection = {
  name: "limits",
  async run({ token }) {
    const upstash = await startUpstashLike();
    const configs: [string, Record<string, string>][] = [
      ["limits off", { RATE_LIMITS: "off" }],
      ["memory (in-isolate)", { RATE_LIMITS: "on", RATE_LIMITER_KIND: "memory" }],
      ["workers binding (miniflare)", { RATE_LIMITS: "on", RATE_LIMITER_KIND: "binding" }],
      [
        "upstash (bridge → redis-server)",
        { RATE_LIMITS: "on", UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token },
      ],
    ];
    const servers = [];
    try {
      for (const [, vars] of configs) servers.push(await startMiniflareServer({ vars, sql: SQL }));
      const headers = {
        authorization: `Bearer ${await token(TEAM, ["policy:decide"])}`,
        "content-type": "application/json",
      };
      const body = JSON.stringify({ memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 });
      const results: LoadResult[][] = configs.map(() => []);
      for (let round = 0; round < 3; round++) {
        for (const [i, s] of servers.entries()) {
          results[i]?.push(await load(`${s.url}/v1/policy/decide`, { method: "POST", headers, body, seconds: 4 }));
        }
      }
      const rps = results.map((rs) => rs.reduce((a, r) => a + r.rps, 0) / rs.length);
      const non2xx = results.map((rs) => rs.reduce((a, r) => a + r.non2xx, 0));
      if (non2xx.some((n) => n > 0)) throw new Error(`decide answered non-2xx: ${non2xx.join(", ")}`);
      const base = rps[0] as number;
      const rows: Row[] = [{ section: "limits", metric: `decide, ${configs[0]?.[0]}`, value: base, unit: "req/s" }];
      for (let i = 1; i < configs.length; i++) {
        const v = rps[i] as number;
        rows.push({
          section: "limits",
          metric: `decide, ${configs[i]?.[0]}`,
          value: v,
          unit: "req/s",
          ceiling: base,
          ratio: v / base,
          target: i === UPSTASH ? "reported (network hop)" : `≥ ${MIN_RATIO.toFixed(2)}× limits off`,
          // the limiter may cost at most 10 % of throughput against limits off in the same rounds; Upstash's row
          // carries a network hop to redis-server by design, so it is reported without a verdict
          ...(i === UPSTASH ? {} : { pass: v / base >= MIN_RATIO }),
        });
      }
      return rows;
    } finally {
      for (const s of servers) await s.stop();
      await upstash.stop();
    }
  },
};
