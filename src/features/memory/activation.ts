// Activation (pure): stabilized routes from ops-warden session episodes, and whether one covers the session's need.
import type { SessionEventRow } from "../../ports/memory-store";

export const STABILIZED_MIN_RESOLUTIONS = 3;

export type StabilizedRoute = {
  need_fingerprint: string;
  route_id: string;
  resolved_count: number;
  last_resolved_at: number;
};

/**
 * A need_fingerprint is stabilized on a route when that route resolved it at least 3 times with no escalation of
 * the fingerprint since (an escalation restarts the count; skipped episodes change nothing). Events oldest first.
 * A session counts once per route (a client that retries its POST does not stabilize a route on its own).
 * One route per fingerprint: most resolutions, then the latest, then the smallest route_id.
 */
export function stabilizedRoutes(events: SessionEventRow[], min = STABILIZED_MIN_RESOLUTIONS): StabilizedRoute[] {
  const perNeed = new Map<string, Map<string, { sessions: Set<string>; last: number }>>();
  for (const e of events) {
    if (e.outcome === "escalated") {
      perNeed.set(e.needFingerprint, new Map());
      continue;
    }
    if (e.outcome !== "resolved") continue;
    const routes = perNeed.get(e.needFingerprint) ?? new Map<string, { sessions: Set<string>; last: number }>();
    const r = routes.get(e.routeId) ?? { sessions: new Set<string>(), last: 0 };
    r.sessions.add(e.sessionId);
    r.last = Math.max(r.last, e.createdAt);
    routes.set(e.routeId, r);
    perNeed.set(e.needFingerprint, routes);
  }
  const out: StabilizedRoute[] = [];
  for (const [need, byRoute] of perNeed) {
    const routes = [...byRoute].map(([id, r]) => [id, { n: r.sessions.size, last: r.last }] as const);
    const best = routes
      .filter(([, r]) => r.n >= min)
      .sort(([ia, a], [ib, b]) => b.n - a.n || b.last - a.last || (ia < ib ? -1 : 1))[0];
    if (best)
      out.push({
        need_fingerprint: need,
        route_id: best[0],
        resolved_count: best[1].n,
        last_resolved_at: best[1].last,
      });
  }
  return out.sort(
    (a, b) => b.last_resolved_at - a.last_resolved_at || (a.need_fingerprint < b.need_fingerprint ? -1 : 1),
  );
}

/** Normalises "sha256:<hex>" and "<hex>" to one form so both spellings name the same need. */
export function normalizeFingerprint(fp: string): string {
  return fp.toLowerCase().replace(/^sha256:/, "");
}
