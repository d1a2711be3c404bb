// The sweeps feature's public entry: the scheduled handler (crons), the daily sweep, rollback math others read.
export { DAY_MS, TIER_RULES } from "./memory-tiers";
export type { SweepsNeeds } from "./needs";
export { metricValue, parseWindow } from "./rollback";
export { DAILY_CRON, ROLLBACK_CRON, runDailySweep, runScheduled } from "./scheduled";
