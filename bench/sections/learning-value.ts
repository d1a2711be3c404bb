// Bench "learning value": scripted ops sessions (test/learning-stream.ts: Zipf repeats, noise, drifts, truth by
// construction) driven through the API as agents would (activate → act → POST episodes), scored against that truth.
import {
  actSession,
  defaultStream,
  needFingerprint,
  planStream,
  type StreamConfig,
  StreamTruth,
} from "../../test/learning-stream";
import type { BenchSection, Row } from "../harness";

const SEEDS = [1, 2, 3, 4, 5];
const SESSIONS = 200;

type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** One stream through the server; returns the stream's truth and what GET /v1/metrics says about the same sessions. */
async function runStream(call: Call, config: StreamConfig) {
  const truth = new StreamTruth(config);
  for (const p of planStream(config)) {
    const act = await call("POST", "/v1/memory/activate", { session_kind: p.kind, need_fingerprint: p.fingerprint });
    const offered = (act.covered_route as string | null) ?? null;
    const acted = actSession(p, offered);
    truth.record(p, offered, acted);
    for (const e of acted.episodes)
      await call("POST", "/v1/sessions/events", {
        session_kind: p.kind,
        command: "warden route",
        need_fingerprint: needFingerprint(p.need),
        agent_id: `agent-${p.kind.split(".").pop()}`,
        session_id: `lv-${config.seed}-${p.index}`,
        diagnostic_codes: [],
        activation_id: act.activation_id,
        ...e,
      });
  }
  // the same stream without memory: no offer, so every session reasons
  const withoutMemory = planStream(config).reduce((n, p) => n + actSession(p, null).llmCalls, 0);
  return { truth, withoutMemory, metrics: await call("GET", "/v1/metrics?window=30d") };
}

const within = (api: unknown, truth: number) =>
  typeof api === "number" && (truth === 0 ? api === 0 : Math.abs(api - truth) / truth <= 0.05);
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
const round = (x: number) => Math.round(x * 10_000) / 10_000;
const row = (metric: string, value: number, unit: string, target?: string): Row => ({
  section: "learning-value",
  metric,
  value: round(value),
  unit,
  ...(target ? { target } : {}),
});

/** the per-seed rows: what was served, and each metric against the stream's truth */
function seedRows(seed: number, truth: StreamTruth, withoutMemory: number, m: Record<string, unknown>) {
  const s = truth.summary();
  const accuracy = truth.served ? truth.servedRight / truth.served : 0;
  const checks = [
    within(m.llm_calls_avoided_count, truth.avoided),
    within(m.stale_serves, truth.stale),
    within(m.routing_repeat_accuracy, accuracy),
  ];
  const rows = [
    row(`seed ${seed}: repeats served from memory`, s.servedShare, `share (${truth.served}/${truth.repeats})`),
    row(`seed ${seed}: served routes correct`, s.servedCorrect, `ratio (${truth.servedRight}/${truth.served})`),
    row(
      `seed ${seed}: stale serves per drift (max)`,
      s.maxStalePerDrift,
      "serves",
      `≤ 1 ${verdict(s.maxStalePerDrift <= 1)}`,
    ),
    row(
      `seed ${seed}: metrics avoided / stale / accuracy`,
      Number(m.llm_calls_avoided_count),
      `api ${m.llm_calls_avoided_count} / ${m.stale_serves} / ${m.routing_repeat_accuracy}; truth ${truth.avoided} / ${truth.stale} / ${round(accuracy)}`,
      `±5 % ${verdict(checks.every(Boolean))}`,
    ),
    row(`seed ${seed}: LLM calls with memory vs without`, truth.llmCalls, `calls (without memory: ${withoutMemory})`),
  ];
  return { rows, ok: checks.every(Boolean) && s.maxStalePerDrift <= 1 };
}

export const learningValueSection: BenchSection = {
  name: "learning-value",
  async run({ server, token }) {
    const rows: Row[] = [];
    const truths: StreamTruth[] = [];
    let allOk = true;
    let baseline = 0;
    for (const seed of SEEDS) {
      // a team per seed, so every stream starts from an empty memory and its own prior
      const team = `bench-lv-${seed}-${Date.now()}`;
      const auth = `Bearer ${await token(team, ["memory:read", "memory:write", "events:write", "runs:read"])}`;
      const call: Call = async (method, path, body) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: auth, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = (await res.json()) as Record<string, unknown>;
        if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
        return json;
      };
      const { truth, withoutMemory, metrics } = await runStream(call, defaultStream(seed, SESSIONS));
      const r = seedRows(seed, truth, withoutMemory, metrics);
      baseline += withoutMemory;
      rows.push(...r.rows);
      truths.push(truth);
      allOk &&= r.ok;
    }
    const sum = (pick: (t: StreamTruth) => number) => truths.reduce((a, t) => a + pick(t), 0);
    const share = truths.reduce((a, t) => a + t.summary().servedShare, 0) / truths.length;
    const correct =
      sum((t) => t.servedRight) /
      Math.max(
        1,
        sum((t) => t.served),
      );
    const saving = 1 - sum((t) => t.llmCalls) / baseline;
    return [
      row("streams", SEEDS.length, `× ${SESSIONS} sessions (40 needs, 10 % noise, 4 drifts at session 100)`),
      row("repeats served from memory (mean of seeds)", share, "share", `≥ 0.65 ${verdict(share >= 0.65)}`),
      row("served routes correct (all seeds' serves)", correct, "ratio", `≥ 0.97 ${verdict(correct >= 0.97)}`),
      row("LLM calls saved vs the same streams without memory", saving, "share"),
      row(
        "every seed: ≤ 1 stale serve per drift, metrics within 5 % of truth",
        Number(allOk),
        "1 = all",
        verdict(allOk),
      ),
      ...rows,
    ];
  },
};
