// What the sweeps feature needs from the composition root (the daily sweep and the rollback matrix).
export type { SweepDeps as SweepsNeeds } from "./scheduled";
