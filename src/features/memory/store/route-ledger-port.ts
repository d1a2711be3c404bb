// Port: the route ledger — sessions joined with the route their activation served, and operators' route overrides.

/** one session episode with what memory served it (null when it carried no activation_id, or one for another need) */
export type ServedSessionRow = {
  id: string;
  session_id: string;
  session_kind: string;
  outcome: string;
  need_fingerprint: string;
  route_id: string;
  route_source: string | null;
  /** escalated episodes: route | environment | unknown, when the agent said */
  failure_cause?: string | null;
  /** the episode's place in its session, when the agent numbered it */
  episode_index?: number | null;
  activation_id: string | null;
  /** the route the linked activation served for this need; null when it served none */
  served_route_id: string | null;
  /** true when the activation_id names a team activation for this session's need */
  activation_found: boolean;
  created_at: number;
};

export type RouteOverrideRow = { needFingerprint: string; routeId: string; state: "retired" | "pinned" };

/** the team's route evidence across all its needs: the prior of every route's confidence */
export type RouteOutcomeTotals = { resolved: number; failed: number };

export interface RouteLedger {
  /** resolved episodes and escalations not caused by the environment, from `since` on */
  routeOutcomeTotals(teamId: string, since: number): Promise<RouteOutcomeTotals>;
  /** the team's session episodes from `since` on, oldest first, each joined with its activation, bounded */
  sessionsWithServes(teamId: string, since: number, limit: number): Promise<ServedSessionRow[]>;
  /** the route an activation served for its need, or null (unknown id, another team, or nothing served) */
  activation(
    teamId: string,
    activationId: string,
  ): Promise<{ needFingerprint: string | null; routeId: string | null } | null>;
  /** overrides for these needs (or every need) */
  overrides(teamId: string, needs: string[] | null): Promise<RouteOverrideRow[]>;
  /** marks a route retired (replacing a pin); idempotent */
  retire(teamId: string, need: string, route: string, by: string, now: number): Promise<void>;
  /** removes an override; false when there was none */
  clear(teamId: string, need: string, route: string): Promise<boolean>;
  /** stores a pending pin and returns its version (one sequence per team) */
  addPinRequest(teamId: string, need: string, route: string, by: string, now: number): Promise<number>;
  /** makes a pending pin live; false (and no change) when it is not pending */
  applyPinRequest(teamId: string, version: number, now: number): Promise<boolean>;
}
