// ops-warden evaluation metrics, pure: served routes, llm_calls_avoided, routing_repeat_accuracy, stale serves.
import type { ServedSessionRow } from "../../ports/route-ledger";
import { RouteBook } from "../memory/domain";

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

/** One session (session_id × need) that began in the window, as its episodes replayed it. */
export type Session = {
  first: ServedSessionRow;
  last: ServedSessionRow;
  /** the route the session's linked activation served, from its first episode that names one */
  served: string | null;
  /** another session had resolved the need before this one began */
  repeat: boolean;
  /** session_kind of the served route's latest resolution when the session began */
  priorKind: string | null;
};

/**
 * Replays the episodes (oldest first) through a RouteBook and groups those of sessions that began at or after `since`
 * by (session_id, need_fingerprint); earlier rows only build the history the sessions are judged against.
 */
export function replaySessions(rows: ServedSessionRow[], since: number): Session[] {
  const book = new RouteBook();
  const sessions = new Map<string, Session>();
  for (const r of rows) {
    const key = `${r.session_id}\u0000${r.need_fingerprint}`;
    let s = sessions.get(key);
    if (!s && r.created_at >= since) {
      s = { first: r, last: r, served: null, repeat: book.everResolved(r.need_fingerprint), priorKind: null };
      sessions.set(key, s);
    }
    if (s) {
      s.last = r;
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
    });
  }
  return [...sessions.values()];
}

/** What one served session counts toward: resolved on the served route, the route reused, stale, across runtimes. */
export function judgeServed(s: Session & { served: string }) {
  const right = s.last.outcome === "resolved" && s.last.route_id === s.served;
  return {
    right,
    avoided: right && s.last.route_source !== "reasoned",
    stale: s.last.outcome === "escalated",
    cross: s.priorKind !== null && s.priorKind !== s.first.session_kind,
  };
}

/**
 * Each session counts once: its episodes are grouped by (session_id, need_fingerprint); the session's outcome is its
 * latest episode, its start is its first. A session is **served** when an episode names (activation_id) an activation
 * of the team for the same need that served a route — what memory actually handed the agent, not what it might have.
 *
 * - llm_calls_avoided_count = served sessions whose outcome is resolved on the served route, not marked
 *   route_source "reasoned" (the agent did not think it out again)
 * - routing_repeat_accuracy = served sessions resolved on the served route / served sessions (null when none)
 * - stale_serves = served sessions whose outcome is escalated
 * - cross_runtime_continuity = the accuracy over served sessions whose session_kind differs from that of the served
 *   route's latest resolution before the session began (null when none)
 * - repeats = sessions whose need had been resolved by an earlier session (RouteBook, the activation's definition)
 *
 * `rows` oldest first; rows before `since` only establish history.
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
    stale_serves: count((j) => j.stale),
    cross_runtime_repeats: cross,
    cross_runtime_continuity: cross === 0 ? null : crossRight / cross,
  };
}

/** Nearest-rank percentile of an ascending list; null when empty. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
