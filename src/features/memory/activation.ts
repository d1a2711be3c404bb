// Route standing (pure): the one definition of a served route, used by activation and by GET /v1/metrics.
import type { SessionEventRow } from "../../ports/memory-store";
import { type RouteOutcomeTotals, routeConfidence, SERVE_THRESHOLD, teamPrior } from "./route-confidence";

/** the evidence items (resolutions, failures, evidence against) a route's confidence is computed over */
export const EVIDENCE_WINDOW = 20;
/** offers ignored in favour of another route, in a row, that stop a route being offered until it resolves again */
export const AGAINST_STREAK_LIMIT = 2;

export type StabilizedRoute = {
  need_fingerprint: string;
  route_id: string;
  /** resolving sessions in the route's evidence window */
  resolved_count: number;
  last_resolved_at: number;
  /** resolving sessions over the route's whole history */
  lifetime_resolved: number;
  /** lower bound on its resolve rate (route-confidence.ts), 4 decimals */
  confidence: number;
  pinned: boolean;
};

/** an operator's decision about one route of one need */
export type RouteOverride = { needFingerprint: string; routeId: string; state: "retired" | "pinned" };

/** what the standing reads from an episode */
export type RouteEvent = Pick<
  SessionEventRow,
  "needFingerprint" | "routeId" | "sessionId" | "outcome" | "createdAt" | "sessionKind"
> &
  Partial<Pick<SessionEventRow, "failureCause" | "offeredRouteId">>;

type Evidence = "resolved" | "failed" | "against";

type RouteState = {
  /** newest last, at most EVIDENCE_WINDOW */
  window: Evidence[];
  /** `<evidence>\u0000<session>` already counted: a session counts once per kind of evidence */
  counted: Set<string>;
  /** every session that ever resolved on it */
  lifetime: Set<string>;
  /** not offered until it resolves again: a route-caused failure, or evidence against (see apply) */
  blocked: boolean;
  /** evidence against since its last resolution */
  againstStreak: number;
  last: number;
  /** session_kind of the latest resolution */
  lastKind: string | null;
};

const count = (r: RouteState, kind: Evidence) => r.window.filter((x) => x === kind).length;

/**
 * The standing of every route of every need, built episode by episode (oldest first, each session's episodes in
 * their own order: episode-order.ts):
 * - a **resolved** episode is evidence for its route (once per session), lifts its block and ends its streak of
 *   evidence against;
 * - an **escalated** episode caused by the route (`failure_cause` route, unknown or left out) is evidence against
 *   **only the route it names** and blocks it until a session resolves on it anew, so a drifted route is served at
 *   most once; one caused by the **environment** is no evidence about the route at all;
 * - a session that was **offered** a route (its activation served it), never tried it, and resolved on another route
 *   is evidence against the offered one: AGAINST_STREAK_LIMIT (2) of those in a row, or one while a route-caused
 *   failure is in its window, block it until it resolves again;
 * - **skipped** changes nothing.
 * A route is served when it is not blocked and the lower bound on its resolve rate over its last EVIDENCE_WINDOW
 * items, with the team's prior (route-confidence.ts), clears SERVE_THRESHOLD. Retired routes never stand; a pinned
 * route stands regardless and wins. Otherwise one route per need: highest confidence, then the latest resolution,
 * then the smallest route_id.
 */
export class RouteBook {
  private readonly needs = new Map<string, Map<string, RouteState>>();
  private readonly overrides = new Map<string, "retired" | "pinned">();
  /** routes each session (need × session) tried, to tell an ignored offer from a failed one */
  private readonly tried = new Map<string, Set<string>>();
  private readonly prior: RouteOutcomeTotals;

  constructor(overrides: RouteOverride[] = [], teamTotals: RouteOutcomeTotals = { resolved: 0, failed: 0 }) {
    for (const o of overrides) this.overrides.set(`${o.needFingerprint}\u0000${o.routeId}`, o.state);
    this.prior = teamPrior(teamTotals);
  }

  private route(need: string, id: string): RouteState {
    let routes = this.needs.get(need);
    if (!routes) {
      routes = new Map();
      this.needs.set(need, routes);
    }
    let r = routes.get(id);
    if (!r) {
      r = unused();
      routes.set(id, r);
    }
    return r;
  }

  /** adds one item of evidence unless this session already gave that kind; true when it was new */
  private add(r: RouteState, kind: Evidence, session: string): boolean {
    const key = `${kind}\u0000${session}`;
    if (r.counted.has(key)) return false;
    r.counted.add(key);
    r.window.push(kind);
    if (r.window.length > EVIDENCE_WINDOW) r.window.shift();
    return true;
  }

  apply(e: RouteEvent): void {
    if (e.outcome === "skipped") return;
    const sessionKey = `${e.needFingerprint}\u0000${e.sessionId}`;
    const tried = this.tried.get(sessionKey) ?? new Set<string>();
    this.tried.set(sessionKey, tried.add(e.routeId));
    if (e.outcome === "escalated") {
      if (e.failureCause === "environment") return; // the route was right; the world failed it
      const r = this.route(e.needFingerprint, e.routeId);
      this.add(r, "failed", e.sessionId);
      r.blocked = true;
      return;
    }
    const r = this.route(e.needFingerprint, e.routeId);
    this.add(r, "resolved", e.sessionId);
    r.lifetime.add(e.sessionId);
    r.last = Math.max(r.last, e.createdAt);
    r.lastKind = e.sessionKind;
    r.blocked = false;
    r.againstStreak = 0;
    const offered = e.offeredRouteId;
    if (offered && offered !== e.routeId && !tried.has(offered)) {
      const o = this.route(e.needFingerprint, offered);
      if (!this.add(o, "against", e.sessionId)) return;
      o.againstStreak += 1;
      if (o.againstStreak >= AGAINST_STREAK_LIMIT || count(o, "failed") > 0) o.blocked = true;
    }
  }

  /** the lower bound on this route's resolve rate right now */
  private confidence(r: RouteState): number {
    const failed = count(r, "failed") + count(r, "against");
    return routeConfidence({ resolved: count(r, "resolved"), failed }, this.prior);
  }

  /** the route memory serves for a need right now, or undefined */
  served(need: string): StabilizedRoute | undefined {
    const routes = new Map(this.needs.get(need) ?? []);
    // a pinned route is served even before any session used it
    for (const [key, state] of this.overrides) {
      const [n, id] = key.split("\u0000") as [string, string];
      if (n === need && state === "pinned" && !routes.has(id)) routes.set(id, unused());
    }
    let best: { id: string; r: RouteState; pinned: boolean; c: number } | undefined;
    for (const [id, r] of routes) {
      const o = this.overrides.get(`${need}\u0000${id}`);
      if (o === "retired") continue;
      const pinned = o === "pinned";
      const c = this.confidence(r);
      if (!pinned && (r.blocked || c < SERVE_THRESHOLD)) continue;
      if (!best || better({ id, r, pinned, c }, best)) best = { id, r, pinned, c };
    }
    if (!best) return undefined;
    return {
      need_fingerprint: need,
      route_id: best.id,
      resolved_count: count(best.r, "resolved"),
      last_resolved_at: best.r.last,
      lifetime_resolved: best.r.lifetime.size,
      confidence: Math.round(best.c * 10_000) / 10_000,
      pinned: best.pinned,
    };
  }

  /** session_kind of the latest resolution of this route (cross-runtime continuity) */
  lastResolvedKind(need: string, route: string): string | null {
    return this.needs.get(need)?.get(route)?.lastKind ?? null;
  }

  /** whether any session resolved this need before */
  everResolved(need: string): boolean {
    for (const r of this.needs.get(need)?.values() ?? []) if (r.lifetime.size > 0) return true;
    return false;
  }

  all(): StabilizedRoute[] {
    const out: StabilizedRoute[] = [];
    const needs = new Set(this.needs.keys());
    for (const [key, state] of this.overrides) if (state === "pinned") needs.add(key.split("\u0000")[0] as string);
    for (const need of needs) {
      const s = this.served(need);
      if (s) out.push(s);
    }
    return out.sort(
      (a, b) => b.last_resolved_at - a.last_resolved_at || (a.need_fingerprint < b.need_fingerprint ? -1 : 1),
    );
  }
}

/** a route no session has used yet */
function unused(): RouteState {
  return {
    window: [],
    counted: new Set(),
    lifetime: new Set(),
    blocked: false,
    againstStreak: 0,
    last: 0,
    lastKind: null,
  };
}

type Candidate = { id: string; r: RouteState; pinned: boolean; c: number };

/** pinned first, then confidence, then the latest resolution, then the smallest route_id */
function better(a: Candidate, b: Candidate): boolean {
  if (a.pinned !== b.pinned) return a.pinned;
  if (a.c !== b.c) return a.c > b.c;
  if (a.r.last !== b.r.last) return a.r.last > b.r.last;
  return a.id < b.id;
}

/** The served route of every need after these episodes (oldest first, in episode order); see RouteBook. */
export function stabilizedRoutes(
  events: RouteEvent[],
  overrides: RouteOverride[] = [],
  teamTotals: RouteOutcomeTotals = { resolved: 0, failed: 0 },
): StabilizedRoute[] {
  const book = new RouteBook(overrides, teamTotals);
  for (const e of events) book.apply(e);
  return book.all();
}

/** Normalises "sha256:<hex>" and "<hex>" to one form so both spellings name the same need. */
export function normalizeFingerprint(fp: string): string {
  return fp.toLowerCase().replace(/^sha256:/, "");
}
