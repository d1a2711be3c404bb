// The memory feature's pure entry: the one definition of a stabilized route (RouteBook) other features reuse.
export {
  normalizeFingerprint,
  PROVEN_RECORD,
  PROVEN_RECOVERY,
  RouteBook,
  type RouteEvent,
  type RouteOverride,
  STABILIZED_MIN_RESOLUTIONS,
  type StabilizedRoute,
  stabilizedRoutes,
} from "./activation";
