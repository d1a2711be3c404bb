// Per-isolate cache of each team's compiled active profile and mode ceiling, so a decision costs no D1 read.
import type { MemrlMode } from "../../../contracts/memrl-policy";
import { createTeamCache, type TeamCache } from "../../lib/team-cache";
import { DEFAULT_PROFILE, DEFAULT_PROFILE_VERSION } from "./default-profile";
import { type CompiledProfile, compileProfile } from "./evaluator";
import type { PolicyStore } from "./store/policy-store-port";

export type TeamPolicy = { compiled: CompiledProfile; ceiling: MemrlMode };

export type TeamPolicyCache = TeamCache<TeamPolicy>;

export const DEFAULT_COMPILED = compileProfile(DEFAULT_PROFILE, DEFAULT_PROFILE_VERSION);

/**
 * Entries live `ttlMs`; another isolate's activation becomes visible here within that time.
 * Compilation happens once per (team, version), not per refresh.
 */
export function createTeamPolicyCache(store: PolicyStore, ttlMs = 1000): TeamPolicyCache {
  return createTeamCache(async (teamId, previous) => {
    const [active, ceiling] = await Promise.all([store.activeProfile(teamId), store.modeCeiling(teamId)]);
    const compiled =
      active === null
        ? DEFAULT_COMPILED
        : previous?.compiled.version === active.version
          ? previous.compiled
          : compileProfile(active.body, active.version);
    return { compiled, ceiling };
  }, ttlMs);
}
