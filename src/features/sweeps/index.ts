// The sweeps feature's public entry: the scheduled handler (crons), the daily sweep, rollback math others read.
import { defineFeature } from "../feature";
import { DAILY_CRON, ROLLBACK_CRON, runScheduled } from "./scheduled";

export { DAY_MS, TIER_RULES } from "./memory-tiers";
export type { SweepsNeeds } from "./needs";
export { metricValue, parseWindow } from "./rollback";
export { DAILY_CRON, ROLLBACK_CRON, runDailySweep, runScheduled } from "./scheduled";

/** Sweeps: no routes; the rollback matrix every 5 minutes, retention and the memory lifecycle daily. */
export const sweepsFeature = defineFeature({
  name: "sweeps",
  routes: [],
  crons: { crons: [ROLLBACK_CRON, DAILY_CRON], run: runScheduled },
});
