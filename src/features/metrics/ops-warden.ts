// ops-warden evaluation metrics, pure: served routes, llm_calls_avoided, routing_repeat_accuracy, stale serves.
import type { ServedSessionRow } from "../memory/domain";
import { orderEpisodes, RouteBook } from "../memory/domain";

export type { ServedSessionRow };

export type OpsWardenMetrics = {
  /** distinct sessions (session_id × need) with an episode in the window */
  sessions: number;
  /** sessions in the window whose need another session had resolved before this one began */
  repeats: number;
  /** sessions in the window whose linked activation served a route for their need */
  served: number;
  llm_calls_avoided_count: number;
  routing_repeat_accuracy: number | null;
  stale_serves: number;
  cross_runtime_repeats: number;
  cross_runtime_continuity: number | null;
};

/** One session (session_id × need) that began in the window, as its episodes replayed it (in episode order). */
export type Session = {
  first: ServedSessionRow;
  last: ServedSessionRow;
  /** every episode of the session, in order */
  episodes: ServedSessionRow[];
  /** the route the session's linked activation served, from its first episode that names one */
  served: string | null;
  /** another session had resolved the need before this one began */
  repeat: boolean;
  /** session_kind of the served route's latest resolution when the session began */
  priorKind: string | null;
};

const sessionKey = (r: ServedSessionRow) => `${r.session_id}\u0000${r.need_fingerprint}`;

/**
 * Replays the episodes (oldest first; each session's episodes in `episode_index` order) through a RouteBook and
 * groups those of sessions that began at or after `since` by (session_id, need_fingerprint); earlier rows only build
 * the history the sessions are judged against.
 */
export function replaySessions(rows: ServedSessionRow[], since: number): Session[] {
  const book = new RouteBook();
  const sessions = new Map<string, Session>();
  const ordered = orderEpisodes(rows, (r) => ({ session: sessionKey(r), index: r.episode_index }));
  for (const r of ordered) {
    const key = sessionKey(r);
    let s = sessions.get(key);
    if (!s && r.created_at >= since) {
      const repeat = book.everResolved(r.need_fingerprint);
      s = { first: r, last: r, episodes: [], served: null, repeat, priorKind: null };
      sessions.set(key, s);
    }
    if (s) {
      s.last = r;
      s.episodes.push(r);
      if (s.served === null && r.served_route_id !== null) {
        s.served = r.served_route_id;
        s.priorKind = book.lastResolvedKind(r.need_fingerprint, r.served_route_id);
      }
    }
    book.apply({
      needFingerprint: r.need_fingerprint,
      routeId: r.route_id,
      sessionId: r.session_id,
      outcome: r.outcome as "resolved" | "escalated" | "skipped",
      createdAt: r.created_at,
      sessionKind: r.session_kind,
      failureCause: r.failure_cause,
      offeredRouteId: r.served_route_id,
    });
  }
  return [...sessions.values()];
}

/** an episode on the served route that failed because of the route (or for a cause nobody gave) */
export const isStaleServe = (e: ServedSessionRow, served: string) =>
  e.route_id === served && e.outcome === "escalated" && e.failure_cause !== "environment";

/**
 * What one served session counts toward, from its episodes on the served route:
 * - stale: its episodes on the served route that failed for cause route or unknown, one per episode_index (a
 *   missing index is 0), so a retried POST counts once;
 * - avoided: the agent took the served route from memory (`route_source: memory` on an episode naming it) and it was
 *   not stale: the reasoning call was not needed, whether or not the environment then failed the session;
 * - right: the served route resolved, or failed only because of the environment, and was never stale;
 * - cross: the served route last resolved for another session_kind.
 */
export function judgeServed(s: Session & { served: string }) {
  const onServed = s.episodes.filter((e) => e.route_id === s.served);
  // one per numbered episode: a retried POST of the same episode is not a second failure
  const stale = new Set(onServed.filter((e) => isStaleServe(e, s.served)).map((e) => e.episode_index ?? 0)).size;
  const worked = onServed.some(
    (e) => e.outcome === "resolved" || (e.outcome === "escalated" && e.failure_cause === "environment"),
  );
  const right = worked && stale === 0;
  return {
    right,
    avoided: stale === 0 && onServed.some((e) => e.route_source === "memory" && e.outcome !== "skipped"),
    stale,
    cross: s.priorKind !== null && s.priorKind !== s.first.session_kind,
  };
}

/**
 * Each session counts once: its episodes are grouped by (session_id, need_fingerprint) and replayed in episode order;
 * its start is its first episode. A session is **served** when an episode names (activation_id) an activation of the
 * team for the same need that served a route — what memory actually handed the agent, not what it might have.
 *
 * - llm_calls_avoided_count = served sessions that took the served route from memory and did not find it stale
 * - routing_repeat_accuracy = served sessions whose served route was right (resolved, or failed only for the
 *   environment) / served sessions (null when none)
 * - stale_serves = episodes of served sessions on the served route that failed for cause route or unknown
 * - cross_runtime_continuity = the accuracy over served sessions whose session_kind differs from that of the served
 *   route's latest resolution before the session began (null when none)
 * - repeats = sessions whose need had been resolved by an earlier session (RouteBook, the activation's definition)
 *
 * `rows` oldest first; rows before `since` only establish history. Worked examples: docs/learning.md.
 */
export function opsWardenMetrics(rows: ServedSessionRow[], since: number): OpsWardenMetrics {
  const sessions = replaySessions(rows, since);
  const judged = sessions.flatMap((s) => (s.served === null ? [] : [judgeServed({ ...s, served: s.served })]));
  const count = (pick: (j: ReturnType<typeof judgeServed>) => boolean) => judged.filter(pick).length;
  const right = count((j) => j.right);
  const cross = count((j) => j.cross);
  const crossRight = count((j) => j.cross && j.right);
  return {
    sessions: sessions.length,
    repeats: sessions.filter((s) => s.repeat).length,
    served: judged.length,
    llm_calls_avoided_count: count((j) => j.avoided),
    routing_repeat_accuracy: judged.length === 0 ? null : right / judged.length,
    stale_serves: judged.reduce((n, j) => n + j.stale, 0),
    cross_runtime_repeats: cross,
    cross_runtime_continuity: cross === 0 ? null : crossRight / cross,
  };
}

/** Nearest-rank percentile of an ascending list; null when empty. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
