// The ops-warden metrics against a scripted stream whose true counts are known by construction (test/learning-stream).
import { describe, expect, it } from "vitest";
import { actSession, defaultStream, planStream, type StreamConfig, StreamTruth } from "../../../test/learning-stream";
import { orderEpisodes, type RouteEvent, routeOutcomeTotals, stabilizedRoutes } from "../memory/domain";
import { opsWardenMetrics, type ServedSessionRow } from "./ops-warden";

/** Activation as the server does it: this need's episodes in episode order, the team's totals as the prior. */
function offerFor(events: RouteEvent[], episodeIndex: Map<RouteEvent, number>, need: string): string | null {
  const history = orderEpisodes(
    events.filter((e) => e.needFingerprint === need),
    (e) => ({ session: e.sessionId, index: episodeIndex.get(e) }),
  );
  const routes = stabilizedRoutes(history, [], routeOutcomeTotals(events));
  return routes.find((r) => r.need_fingerprint === need)?.route_id ?? null;
}

/** Drives the stream through in-process activation and returns the metrics next to the truth. */
function runInProcess(config: StreamConfig, opts: { dropCauses?: boolean } = {}) {
  const truth = new StreamTruth(config);
  const events: RouteEvent[] = [];
  const episodeIndex = new Map<RouteEvent, number>();
  const rows: ServedSessionRow[] = [];
  for (const p of planStream(config)) {
    const offered = offerFor(events, episodeIndex, p.fingerprint);
    const acted = actSession(p, offered);
    truth.record(p, offered, acted);
    for (const e of acted.episodes) {
      const at = rows.length;
      const cause = opts.dropCauses ? null : (e.failure_cause ?? null);
      const ev: RouteEvent = {
        needFingerprint: p.fingerprint,
        routeId: e.route_id,
        sessionId: `s${p.index}`,
        outcome: e.outcome,
        createdAt: at,
        sessionKind: p.kind,
        failureCause: cause,
        offeredRouteId: offered,
      };
      events.push(ev);
      episodeIndex.set(ev, e.episode_index);
      rows.push({
        id: `e${at}`,
        session_id: `s${p.index}`,
        session_kind: p.kind,
        outcome: e.outcome,
        need_fingerprint: p.fingerprint,
        route_id: e.route_id,
        route_source: e.route_source,
        failure_cause: cause,
        episode_index: e.episode_index,
        activation_id: `act${p.index}`,
        served_route_id: offered,
        activation_found: true,
        created_at: at,
      });
    }
  }
  return { truth, metrics: opsWardenMetrics(rows, 0) };
}

const SEEDS = [1, 2, 3, 4, 5];

describe("ops-warden metrics on a scripted stream (truth by construction)", () => {
  it.each(SEEDS)("seed %i, 200 sessions: every metric equals the stream's own count", (seed) => {
    const { truth, metrics } = runInProcess(defaultStream(seed, 200));
    expect(truth.stale).toBeGreaterThan(0); // the stream does exercise drift
    expect(metrics.sessions).toBe(truth.sessions);
    expect(metrics.repeats).toBe(truth.repeats);
    expect(metrics.served).toBe(truth.served);
    expect(metrics.llm_calls_avoided_count).toBe(truth.avoided);
    expect(metrics.stale_serves).toBe(truth.stale);
    expect(metrics.routing_repeat_accuracy).toBeCloseTo(truth.servedRight / truth.served, 10);
  });

  it("serves ≥ 65 % of repeats at 200 sessions (mean of five seeds), ≥ 97 % correct, ≤ 1 stale serve per drift", () => {
    const truths = SEEDS.map((seed) => runInProcess(defaultStream(seed, 200)).truth);
    const runs = truths.map((t) => t.summary());
    const mean = (pick: (s: (typeof runs)[number]) => number) => runs.reduce((a, s) => a + pick(s), 0) / runs.length;
    expect(mean((s) => s.servedShare)).toBeGreaterThanOrEqual(0.65);
    // every drift costs one stale serve (nobody knows before the first try): judged over the five seeds' serves
    const sum = (pick: (t: StreamTruth) => number) => truths.reduce((a, t) => a + pick(t), 0);
    expect(sum((t) => t.servedRight) / sum((t) => t.served)).toBeGreaterThanOrEqual(0.97);
    for (const s of runs) {
      expect(s.maxStalePerDrift).toBeLessThanOrEqual(1);
      expect(s.costSaving).toBeGreaterThan(0.5);
    }
  });

  it("without failure_cause, noisy escalations of right routes read as stale (why agents should say the cause)", () => {
    const config = defaultStream(1, 200);
    const { truth, metrics } = runInProcess(config);
    expect(truth.stale).toBe(metrics.stale_serves);
    // the same stream with every cause left out: the environment's failures now count against the routes
    const blind = runInProcess(config, { dropCauses: true });
    expect(blind.metrics.stale_serves).toBeGreaterThan(truth.stale);
  });
});
