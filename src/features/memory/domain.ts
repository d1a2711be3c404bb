// The memory feature's pure entry: the one definition of a served route (RouteBook) other features reuse.
export {
  AGAINST_STREAK_LIMIT,
  EVIDENCE_WINDOW,
  normalizeFingerprint,
  RouteBook,
  type RouteEvent,
  type RouteOverride,
  type StabilizedRoute,
  stabilizedRoutes,
} from "./activation";
export { orderEpisodes } from "./episode-order";
export type * from "./hints-port";
export {
  PRIOR_HISTORY_MS,
  type RouteOutcomeTotals,
  routeConfidence,
  routeOutcomeTotals,
  SERVE_THRESHOLD,
  teamPrior,
  wilsonLowerBound,
} from "./route-confidence";
export type * from "./store/route-ledger-port";
