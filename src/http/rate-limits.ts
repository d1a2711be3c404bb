// Rate-limit policy: route classes, documented per-team/per-subject defaults, D1 overrides (cached), headers, outages.

import { AppFailure } from "../errors";
import { log } from "../lib/log";
import { RateLimiterUnavailable } from "../lib/rate-limit";
import type { LimitRule, RateLimiter, RateLimitResult } from "../ports/rate-limiter";
import type { TeamLimitStore } from "../ports/team-limits";

export const ROUTE_CLASSES = [
  "decide",
  "runs",
  "approvals",
  "memory_write",
  "memory_read",
  "events",
  "slack",
  "other",
] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

export type ClassLimit = { perTeam: number; perSubject: number; periodS: number };
export type ClassLimits = Record<RouteClass, ClassLimit>;

/**
 * Defaults per minute, sized for a fleet of agents per team (docs/storage.md "Rate limits"). A subject is one token
 * identity (`sub`), so one runaway agent spends its own bucket long before the team's. Approvals and stop commands
 * have their own class: agent traffic never spends them.
 */
export const DEFAULT_LIMITS: ClassLimits = {
  decide: { perTeam: 6000, perSubject: 1200, periodS: 60 },
  runs: { perTeam: 3000, perSubject: 600, periodS: 60 },
  approvals: { perTeam: 1200, perSubject: 600, periodS: 60 },
  memory_write: { perTeam: 1200, perSubject: 600, periodS: 60 },
  memory_read: { perTeam: 3000, perSubject: 600, periodS: 60 },
  events: { perTeam: 3000, perSubject: 600, periodS: 60 },
  slack: { perTeam: 600, perSubject: 600, periodS: 60 },
  other: { perTeam: 600, perSubject: 600, periodS: 60 },
};

/** Per client IP (CF-Connecting-IP), counted only for unauthenticated and failed-auth requests. */
export const DEFAULT_PREAUTH_PER_MINUTE = 120;

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The bucket a request spends, from its method and path alone (no body is read). */
export function routeClassOf(method: string, path: string): RouteClass {
  const m = method.toUpperCase();
  if (path.startsWith("/slack/")) return "slack";
  if (path === "/v1/policy/decide") return "decide";
  if (path === "/v1/approvals" || /^\/v1\/gates\/[^/]+\/decision$/.test(path) || /^\/v1\/runs\/[^/]+\/stop$/.test(path))
    return "approvals";
  if (path === "/v1/memory" || path.startsWith("/v1/memory/") || path.startsWith("/v1/sessions")) {
    if (READ_METHODS.has(m) || path === "/v1/memory/query" || path === "/v1/memory/activate") return "memory_read";
    return "memory_write";
  }
  if (path === "/v1/events") return "events";
  if (path.startsWith("/v1/runs") || path.startsWith("/v1/orders")) return "runs";
  return "other";
}

/** Reads, decide (an agent's read of policy) and approvals stay available in a limiter outage; writes do not. */
export function failsOpen(method: string, cls: RouteClass): boolean {
  return READ_METHODS.has(method.toUpperCase()) || cls === "decide" || cls === "memory_read" || cls === "approvals";
}

export type TeamLimits = {
  forTeam(teamId: string, now: number): Promise<ClassLimits>;
  /** Drops the team's cached limits in this isolate (PUT /v1/limits); other isolates pick them up within the TTL. */
  invalidate(teamId: string): void;
  /** The limits a team without `team_limit` rows gets. */
  defaults: ClassLimits;
};

/** The largest per-team or per-subject count and the longest window PUT /v1/limits accepts. */
export const MAX_LIMIT = 1_000_000;
export const MAX_PERIOD_S = 3600;

/** How far above the defaults a team may raise its own limits, unless the deployment says otherwise. */
export const DEFAULT_CEILING_MULTIPLE = 10;

/**
 * The values that ask for more than `multiple` × the default rate of their class (requests per second, whatever the
 * period), each with the most the same period allows. Pure.
 */
export function ratesAbove(
  changes: [RouteClass, ClassLimit][],
  defaults: ClassLimits,
  multiple: number,
): { path: string; asked: number; max: number; periodS: number }[] {
  const over: { path: string; asked: number; max: number; periodS: number }[] = [];
  for (const [cls, l] of changes) {
    const d = defaults[cls];
    for (const [field, asked, base] of [
      ["per_team", l.perTeam, d.perTeam],
      ["per_subject", l.perSubject, d.perSubject],
    ] as const) {
      const max = Math.floor(((base * multiple) / d.periodS) * l.periodS);
      if (asked > max) over.push({ path: `limits.${cls}.${field}`, asked, max, periodS: l.periodS });
    }
  }
  return over;
}

/** The deployment's ceiling on a team's own limits: one message per value over `multiple` × the default rate. */
export function ceilingProblems(
  changes: [RouteClass, ClassLimit][],
  defaults: ClassLimits,
  multiple: number,
): { path: string; message: string }[] {
  return ratesAbove(changes, defaults, multiple).map((o) => ({
    path: o.path,
    message: `${o.asked} per ${o.periodS} s exceeds the deployment's ceiling of ${o.max} (${multiple}× the default rate); ask the operator`,
  }));
}

/** D1 overrides on top of the defaults, cached per isolate for `ttlMs`; a store failure serves the defaults. */
export function createTeamLimits(
  store: Pick<TeamLimitStore, "forTeam">,
  defaults: ClassLimits = DEFAULT_LIMITS,
  ttlMs = 60_000,
  maxTeams = 10_000,
): TeamLimits {
  const cache = new Map<string, { limits: ClassLimits; until: number }>();
  return {
    defaults,
    invalidate(teamId) {
      cache.delete(teamId);
    },
    async forTeam(teamId, now) {
      const hit = cache.get(teamId);
      if (hit && hit.until > now) return hit.limits;
      let limits: ClassLimits = defaults;
      try {
        const rows = await store.forTeam(teamId);
        if (rows.length > 0) {
          limits = { ...defaults };
          for (const r of rows) {
            if ((ROUTE_CLASSES as readonly string[]).includes(r.routeClass)) {
              limits[r.routeClass as RouteClass] = { perTeam: r.perTeam, perSubject: r.perSubject, periodS: r.periodS };
            }
          }
        }
      } catch (e) {
        log.warn("team limits unreadable; defaults apply", { team_id: teamId, error: String(e) });
      }
      if (cache.size >= maxTeams) cache.clear();
      cache.set(teamId, { limits, until: now + ttlMs });
      return limits;
    },
  };
}

export type OutageCounts = { failed_open: number; failed_closed: number };

/**
 * Limiter outages seen by this isolate since it started, in all and per team (logged one line each; GET /v1/metrics
 * answers the caller's team's). In memory on purpose: an outage must not cost a D1 write per refused request.
 */
const outages: OutageCounts = { failed_open: 0, failed_closed: 0 };
const outagesByTeam = new Map<string, OutageCounts>();
const MAX_OUTAGE_TEAMS = 10_000;
export const limiterOutages = (teamId?: string): OutageCounts => {
  if (teamId === undefined) return { ...outages };
  return { ...(outagesByTeam.get(teamId) ?? { failed_open: 0, failed_closed: 0 }) };
};
function countOutage(teamId: string | undefined, outcome: keyof OutageCounts) {
  outages[outcome]++;
  if (teamId === undefined) return;
  let t = outagesByTeam.get(teamId);
  if (!t) {
    if (outagesByTeam.size >= MAX_OUTAGE_TEAMS) outagesByTeam.clear();
    t = { failed_open: 0, failed_closed: 0 };
    outagesByTeam.set(teamId, t);
  }
  t[outcome]++;
}

export type Bucket = { name: string; key: string; rule: LimitRule };

/** `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers): every bucket the request spent, with quota and window. */
export const policyHeader = (buckets: Bucket[]) =>
  buckets.map((b) => `"${b.name}";q=${b.rule.limit};w=${b.rule.periodSeconds}`).join(", ");

/** `RateLimit`: the bucket closest to its limit, with what remains and the seconds until it resets. */
function stateHeader(b: Bucket, r: RateLimitResult, now: number) {
  return `"${b.name}";r=${r.remaining};t=${Math.max(0, Math.ceil((r.resetMs - now) / 1000))}`;
}

/**
 * Spends the buckets in order (most specific first, so a refused subject spends nothing of its team's) and answers
 * the headers to set, or throws 429 `rate_limited`. A limiter outage fails open or closed as `openOnOutage` says, and
 * is counted for `teamId` (none before authentication).
 */
export async function spend(
  limiter: RateLimiter,
  buckets: Bucket[],
  now: number,
  openOnOutage: boolean,
  teamId?: string,
): Promise<Record<string, string>> {
  const policy = policyHeader(buckets);
  let tightest: { b: Bucket; r: RateLimitResult } | undefined;
  for (const b of buckets) {
    let r: RateLimitResult;
    try {
      r = await limiter.limit(b.key, b.rule, now);
    } catch (e) {
      if (!(e instanceof RateLimiterUnavailable)) throw e;
      countOutage(teamId, openOnOutage ? "failed_open" : "failed_closed");
      log.warn("rate limiter unavailable", {
        outcome: openOnOutage ? "failed_open" : "failed_closed",
        bucket: b.name,
        team_id: teamId,
        error: e.message,
      });
      if (openOnOutage) return { "RateLimit-Policy": policy };
      throw new AppFailure({
        code: "rate_limited",
        retryAfterSeconds: 5,
        message: "rate limiter unavailable; writes are refused until it is back",
        headers: { "RateLimit-Policy": policy },
      });
    }
    if (!r.success) {
      throw new AppFailure({
        code: "rate_limited",
        retryAfterSeconds: r.retryAfterSeconds,
        headers: { "RateLimit-Policy": policy, RateLimit: stateHeader(b, r, now) },
      });
    }
    if (!tightest || r.remaining < tightest.r.remaining) tightest = { b, r };
  }
  return tightest ? { "RateLimit-Policy": policy, RateLimit: stateHeader(tightest.b, tightest.r, now) } : {};
}
