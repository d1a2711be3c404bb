// Bench "learning value": a seeded replay of ops sessions (Zipf-like repeats, noisy outcomes, drifting routes) driven
// through the API as agents would (activate → act → POST session event), reported against its own ground truth.
import { seededRandom } from "../../test/seeded-random";
import type { BenchSection, Row } from "../harness";

const SEED = 14;
const NEEDS = 40;
const SESSIONS = 600;
const NOISE = 0.1;
/** needs whose route drifts, and when */
const DRIFTED = [0, 1, 2, 5];
const DRIFT_AT = 300;
const KINDS = ["warden.worker", "warden.operator", "warden.agent.claude", "warden.agent.codex"];

const fp = (i: number) => `${i.toString(16).padStart(4, "0")}${"ab".repeat(14)}`;

/** Zipf-like need picker: weight 1/(rank^1.1) */
function zipf(rand: () => number, n: number) {
  const w = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** 1.1);
  const total = w.reduce((a, b) => a + b, 0);
  return () => {
    let x = rand() * total;
    for (let i = 0; i < n; i++) {
      x -= w[i] as number;
      if (x <= 0) return i;
    }
    return n - 1;
  };
}

export const learningValueSection: BenchSection = {
  name: "learning-value",
  async run({ server, token }) {
    const team = `bench-lv-${Date.now()}`;
    const auth = `Bearer ${await token(team, ["memory:read", "memory:write", "events:write", "runs:read"])}`;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: auth, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const rand = seededRandom(SEED);
    const pick = zipf(rand, NEEDS);
    const trueRoute = (need: number, s: number) =>
      DRIFTED.includes(need) && s >= DRIFT_AT ? `route.${need}.b` : `route.${need}.a`;

    const resolvedBefore = new Set<number>();
    /** last route served per need that was right when served */
    const lastRightServe = new Map<number, string>();
    let repeats = 0;
    let served = 0;
    let servedRight = 0; // served route was the true route
    let servedResolved = 0; // served and resolved on it (what the API's accuracy measures)
    let avoided = 0;
    let stale = 0;
    let noiseReasoning = 0;
    const stalePerDrift = new Map<number, number>();
    const sessionsUntilStop = new Map<number, number>();
    const driftSessions = new Map<number, number>();

    for (let s = 0; s < SESSIONS; s++) {
      const need = pick();
      const kind = KINDS[Math.floor(rand() * KINDS.length)] as string;
      const truth = trueRoute(need, s);
      const noisy = rand() < NOISE;
      const act = await call("POST", "/v1/memory/activate", { session_kind: kind, need_fingerprint: fp(need) });
      const covered = act.covered_route as string | null;
      const isRepeat = resolvedBefore.has(need);
      if (isRepeat) repeats += 1;
      let route: string;
      let source: "memory" | "reasoned";
      if (covered) {
        served += 1;
        route = covered;
        source = "memory";
        if (covered === truth) servedRight += 1;
      } else {
        // an LLM call: reasoning finds the true route
        route = truth;
        source = "reasoned";
        if (lastRightServe.get(need) === truth) noiseReasoning += 1; // memory had it right before a noisy escalation
      }
      const outcome = route === truth && !noisy ? "resolved" : "escalated";
      if (covered) {
        if (outcome === "resolved") {
          servedResolved += 1;
          avoided += 1;
        } else stale += 1;
        if (covered === truth) lastRightServe.set(need, covered);
      }
      if (DRIFTED.includes(need) && s >= DRIFT_AT) {
        const n = (driftSessions.get(need) ?? 0) + 1;
        driftSessions.set(need, n);
        if (covered && covered !== truth) {
          stalePerDrift.set(need, (stalePerDrift.get(need) ?? 0) + 1);
          sessionsUntilStop.set(need, n);
        }
      }
      if (outcome === "resolved") resolvedBefore.add(need);
      await call("POST", "/v1/sessions/events", {
        session_kind: kind,
        command: "warden route",
        outcome,
        need_fingerprint: fp(need),
        route_id: route,
        agent_id: `agent-${kind.split(".").pop()}`,
        session_id: `lv-${s}`,
        diagnostic_codes: [],
        activation_id: act.activation_id,
        route_source: source,
      });
    }
    const m = await call("GET", "/v1/metrics?window=30d");

    const share = repeats ? served / repeats : 0;
    const accuracy = served ? servedRight / served : 0;
    const maxStale = Math.max(0, ...stalePerDrift.values());
    const maxUntil = Math.max(0, ...sessionsUntilStop.values());
    const within = (api: unknown, truth: number) =>
      typeof api === "number" && (truth === 0 ? api === 0 : Math.abs(api - truth) / truth <= 0.05);
    const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
    const row = (metric: string, value: number, unit: string, target?: string): Row => ({
      section: "learning-value",
      metric,
      value: Math.round(value * 10_000) / 10_000,
      unit,
      ...(target ? { target } : {}),
    });
    const apiAccuracy = servedResolved / Math.max(1, served);
    return [
      row("sessions / needs / drifts", SESSIONS, `sessions (${NEEDS} needs, ${DRIFTED.length} drifts, seed ${SEED})`),
      row("repeat needs served from memory", share, "share", `≥ 0.60 ${verdict(share >= 0.6)}`),
      row("served-route accuracy (route was right)", accuracy, "ratio", `≥ 0.97 ${verdict(accuracy >= 0.97)}`),
      row("stale serves per drift (max)", maxStale, "serves", `≤ 1 ${verdict(maxStale <= 1)}`),
      row("sessions until a drifted route stops being served (max)", maxUntil, "sessions"),
      row("extra reasoning calls from noise", noiseReasoning, `calls (${Math.round(NOISE * 100)} % noise)`),
      row(
        "metrics llm_calls_avoided_count vs truth",
        Number(m.llm_calls_avoided_count),
        `truth ${avoided}`,
        `±5 % ${verdict(within(m.llm_calls_avoided_count, avoided))}`,
      ),
      row(
        "metrics routing_repeat_accuracy vs truth",
        Number(m.routing_repeat_accuracy),
        `truth ${Math.round(apiAccuracy * 10_000) / 10_000}`,
        `±5 % ${verdict(within(m.routing_repeat_accuracy, apiAccuracy))}`,
      ),
      row(
        "metrics stale_serves vs truth",
        Number(m.stale_serves),
        `truth ${stale}`,
        `±5 % ${verdict(within(m.stale_serves, stale))}`,
      ),
      row(
        "metrics routes_served vs truth",
        Number(m.routes_served),
        `truth ${served}`,
        `±5 % ${verdict(within(m.routes_served, served))}`,
      ),
      row(
        "metrics routing_repeats vs truth",
        Number(m.routing_repeats),
        `truth ${repeats}`,
        `±5 % ${verdict(within(m.routing_repeats, repeats))}`,
      ),
    ];
  },
};
