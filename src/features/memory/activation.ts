// Route standing (pure): the one definition of a stabilized route, used by activation and by GET /v1/metrics.
import type { SessionEventRow } from "../../ports/memory-store";

/** fresh resolutions (distinct sessions) a route needs before it is served */
export const STABILIZED_MIN_RESOLUTIONS = 3;
/** resolving sessions in a route's lifetime that make it "proven" */
export const PROVEN_RECORD = 5;
/** fresh resolutions a proven route needs after a single escalation (a new route needs 3) */
export const PROVEN_RECOVERY = 1;

export type StabilizedRoute = {
  need_fingerprint: string;
  route_id: string;
  /** resolving sessions since the route's last escalation */
  resolved_count: number;
  last_resolved_at: number;
  /** resolving sessions over the route's whole history */
  lifetime_resolved: number;
  pinned: boolean;
};

/** an operator's decision about one route of one need */
export type RouteOverride = { needFingerprint: string; routeId: string; state: "retired" | "pinned" };

/** what the standing reads from an episode */
export type RouteEvent = Pick<
  SessionEventRow,
  "needFingerprint" | "routeId" | "sessionId" | "outcome" | "createdAt" | "sessionKind"
>;

type RouteState = {
  /** sessions that resolved on the route since its last escalation */
  fresh: Set<string>;
  /** every session that ever resolved on it */
  lifetime: Set<string>;
  /** lifetime resolutions when the current escalation streak began */
  recordAtStreak: number;
  /** distinct sessions that escalated on the route since it last stood stabilized */
  streak: Set<string>;
  last: number;
  /** session_kind of the latest resolution */
  lastKind: string | null;
  /** fresh resolutions it needs to stand, set by its latest escalation */
  required: number;
};

/**
 * The standing of every route of every need, built episode by episode (oldest first):
 * - a **resolved** episode adds its session to the route's fresh and lifetime sets (a session counts once, so a
 *   retried POST changes nothing);
 * - an **escalated** episode demotes **only the route it names**: its fresh set empties and the escalation joins the
 *   route's streak; sibling routes keep their standing;
 * - **skipped** changes nothing.
 * A route is stabilized when it has at least `required` fresh resolutions, where `required` is PROVEN_RECOVERY (1)
 * for a route that had PROVEN_RECORD (5) resolving sessions before a streak of a single escalation, else
 * STABILIZED_MIN_RESOLUTIONS (3). Because an escalation always empties the fresh set, a route that escalated is never
 * served again before a session resolves on it anew: a drifted route is served at most once.
 * Retired routes never stand; a pinned route stands regardless and wins. Otherwise one route per need: most fresh
 * resolutions, then the latest, then the smallest route_id.
 */
export class RouteBook {
  private readonly needs = new Map<string, Map<string, RouteState>>();
  private readonly overrides = new Map<string, "retired" | "pinned">();

  constructor(
    overrides: RouteOverride[] = [],
    private readonly min = STABILIZED_MIN_RESOLUTIONS,
  ) {
    for (const o of overrides) this.overrides.set(`${o.needFingerprint}\u0000${o.routeId}`, o.state);
  }

  /** a route no session has used yet */
  private unused(): RouteState {
    return {
      fresh: new Set(),
      lifetime: new Set(),
      recordAtStreak: 0,
      streak: new Set(),
      last: 0,
      lastKind: null,
      required: this.min,
    };
  }

  apply(e: RouteEvent): void {
    if (e.outcome === "skipped") return;
    let routes = this.needs.get(e.needFingerprint);
    if (!routes) {
      routes = new Map();
      this.needs.set(e.needFingerprint, routes);
    }
    let r = routes.get(e.routeId);
    if (!r) {
      r = this.unused();
      routes.set(e.routeId, r);
    }
    if (e.outcome === "resolved") {
      r.fresh.add(e.sessionId);
      r.lifetime.add(e.sessionId);
      r.last = Math.max(r.last, e.createdAt);
      r.lastKind = e.sessionKind;
      if (r.fresh.size >= r.required) r.streak.clear();
      return;
    }
    // escalated: this route only
    if (r.streak.size === 0) r.recordAtStreak = r.lifetime.size;
    r.streak.add(e.sessionId);
    r.fresh.clear();
    r.required = r.streak.size === 1 && r.recordAtStreak >= PROVEN_RECORD ? PROVEN_RECOVERY : this.min;
  }

  /** the route memory serves for a need right now, or undefined */
  served(need: string): StabilizedRoute | undefined {
    const routes = new Map(this.needs.get(need) ?? []);
    // a pinned route is served even before any session used it
    for (const [key, state] of this.overrides) {
      const [n, id] = key.split("\u0000") as [string, string];
      if (n === need && state === "pinned" && !routes.has(id)) routes.set(id, this.unused());
    }
    let best: { id: string; r: RouteState; pinned: boolean } | undefined;
    for (const [id, r] of routes) {
      const o = this.overrides.get(`${need}\u0000${id}`);
      if (o === "retired") continue;
      const pinned = o === "pinned";
      if (!pinned && r.fresh.size < r.required) continue;
      if (
        !best ||
        Number(pinned) - Number(best.pinned) > 0 ||
        (pinned === best.pinned &&
          (r.fresh.size > best.r.fresh.size ||
            (r.fresh.size === best.r.fresh.size && (r.last > best.r.last || (r.last === best.r.last && id < best.id)))))
      )
        best = { id, r, pinned };
    }
    if (!best) return undefined;
    return {
      need_fingerprint: need,
      route_id: best.id,
      resolved_count: best.r.fresh.size,
      last_resolved_at: best.r.last,
      lifetime_resolved: best.r.lifetime.size,
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

/** The stabilized route of every need after these episodes (oldest first); see RouteBook. */
export function stabilizedRoutes(
  events: RouteEvent[],
  overrides: RouteOverride[] = [],
  min = STABILIZED_MIN_RESOLUTIONS,
): StabilizedRoute[] {
  const book = new RouteBook(overrides, min);
  for (const e of events) book.apply(e);
  return book.all();
}

/** Normalises "sha256:<hex>" and "<hex>" to one form so both spellings name the same need. */
export function normalizeFingerprint(fp: string): string {
  return fp.toLowerCase().replace(/^sha256:/, "");
}
