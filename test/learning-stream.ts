// Scripted ops-session stream with ground truth by construction: the learning-value bench and the metric tests use it.
import { seededRandom } from "./seeded-random";

/**
 * The world: `needs` needs picked Zipf-like (weight 1/rank^zipf); every need has one true route, `route.<n>.a`, and
 * each need in `drifted` switches for good to `route.<n>.b` at session `driftAt`. A session of a `noisy` draw (rate
 * `noise`) meets a broken environment: its last route attempt escalates with failure_cause environment although the
 * route is right. All draws are made up front, so a run with memory and one without see the very same stream.
 */
export type StreamConfig = {
  seed: number;
  sessions: number;
  needs: number;
  noise: number;
  drifted: number[];
  driftAt: number;
  zipf: number;
};

export const KINDS = ["warden.worker", "warden.operator", "warden.agent.claude", "warden.agent.codex"];

export const defaultStream = (seed: number, sessions: number): StreamConfig => ({
  seed,
  sessions,
  needs: 40,
  noise: 0.1,
  drifted: [0, 1, 2, 5],
  driftAt: Math.floor(sessions / 2),
  zipf: 1.1,
});

export type PlannedSession = {
  index: number;
  need: number;
  fingerprint: string;
  kind: string;
  truth: string;
  noisy: boolean;
};

export const needFingerprint = (need: number) => `${need.toString(16).padStart(4, "0")}${"ab".repeat(14)}`;

/** Every session of the stream, drawn from the seed alone. */
export function planStream(c: StreamConfig): PlannedSession[] {
  const rand = seededRandom(c.seed);
  const weights = Array.from({ length: c.needs }, (_, i) => 1 / (i + 1) ** c.zipf);
  const total = weights.reduce((a, b) => a + b, 0);
  const pick = () => {
    let x = rand() * total;
    for (let i = 0; i < c.needs; i++) {
      x -= weights[i] as number;
      if (x <= 0) return i;
    }
    return c.needs - 1;
  };
  return Array.from({ length: c.sessions }, (_, index) => {
    const need = pick();
    const kind = KINDS[Math.floor(rand() * KINDS.length)] as string;
    const noisy = rand() < c.noise;
    const drifted = c.drifted.includes(need) && index >= c.driftAt;
    return {
      index,
      need,
      fingerprint: needFingerprint(need),
      kind,
      truth: `route.${need}.${drifted ? "b" : "a"}`,
      noisy,
    };
  });
}

/** one episode as the agent posts it (session_event.v1 fields) */
export type StreamEpisode = {
  route_id: string;
  outcome: "resolved" | "escalated";
  failure_cause?: "route" | "environment";
  route_source: "memory" | "reasoned";
  episode_index: number;
};

/**
 * The agent: it takes the offered route if any (route_source memory). A wrong offered route fails for cause route,
 * and the agent then reasons (one LLM call) to the true route; without an offer it reasons straight away. Its last
 * attempt escalates for cause environment when the session is noisy, else resolves.
 */
export function actSession(p: PlannedSession, offered: string | null): { episodes: StreamEpisode[]; llmCalls: number } {
  const last = (route: string, source: StreamEpisode["route_source"], index: number): StreamEpisode =>
    p.noisy
      ? {
          route_id: route,
          outcome: "escalated",
          failure_cause: "environment",
          route_source: source,
          episode_index: index,
        }
      : { route_id: route, outcome: "resolved", route_source: source, episode_index: index };
  if (offered === p.truth) return { episodes: [last(offered, "memory", 0)], llmCalls: 0 };
  if (offered === null) return { episodes: [last(p.truth, "reasoned", 0)], llmCalls: 1 };
  const failed: StreamEpisode = {
    route_id: offered,
    outcome: "escalated",
    failure_cause: "route",
    route_source: "memory",
    episode_index: 0,
  };
  return { episodes: [failed, last(p.truth, "reasoned", 1)], llmCalls: 1 };
}

/** What truly happened, counted from the world model (never from the metric code). */
export class StreamTruth {
  sessions = 0;
  repeats = 0;
  served = 0;
  servedRight = 0;
  stale = 0;
  avoided = 0;
  llmCalls = 0;
  readonly stalePerDrift = new Map<number, number>();
  private readonly resolved = new Set<number>();

  constructor(private readonly config: StreamConfig) {}

  record(p: PlannedSession, offered: string | null, acted: { episodes: StreamEpisode[]; llmCalls: number }): void {
    this.sessions += 1;
    if (this.resolved.has(p.need)) this.repeats += 1;
    this.llmCalls += acted.llmCalls;
    if (offered !== null) {
      this.served += 1;
      if (offered === p.truth) {
        this.servedRight += 1;
        this.avoided += 1;
      } else {
        this.stale += 1;
        if (this.config.drifted.includes(p.need))
          this.stalePerDrift.set(p.need, (this.stalePerDrift.get(p.need) ?? 0) + 1);
      }
    }
    if (acted.episodes.some((e) => e.outcome === "resolved")) this.resolved.add(p.need);
  }

  /** share of repeats served, correctness of what was served, and the most stale serves any drift caused */
  summary() {
    return {
      servedShare: this.repeats ? this.served / this.repeats : 0,
      servedCorrect: this.served ? this.servedRight / this.served : 1,
      maxStalePerDrift: Math.max(0, ...this.stalePerDrift.values()),
      /** LLM calls saved against the same stream without memory (every session reasons once) */
      costSaving: 1 - this.llmCalls / this.sessions,
    };
  }
}
