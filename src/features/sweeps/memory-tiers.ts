// The memory lifecycle rules (decay, hot→warm→cold→archived, task namespace expiry) as numbers for each team object's sweep.
import { DAY_MS } from "../../lib/time";

export { DAY_MS };

import type { TierRules } from "../../ports/memory-maintenance";

export const TIER_RULES: TierRules = {
  baseImportance: 10,
  warmImportanceBelow: 10,
  warmIdleMs: 90 * DAY_MS,
  coldAfterWarmMs: 180 * DAY_MS,
  deleteColdEpisodicAfterMs: 365 * DAY_MS,
  taskTtlMs: 7 * DAY_MS,
  halfLifeDays: { working: 7, episodic: 30, semantic: 90, kb: 90, rigid: null },
};
