// Per-isolate cache of each team's compiled active profile and mode ceiling, so a decision costs no D1 read.
import type { MemrlMode } from "../../../contracts/memrl-policy";
import type { PolicyStore } from "../../ports/policy-store";
import { DEFAULT_PROFILE, DEFAULT_PROFILE_VERSION } from "./default-profile";
import { type CompiledProfile, compileProfile } from "./evaluator";

export type TeamPolicy = { compiled: CompiledProfile; ceiling: MemrlMode };

export type TeamPolicyCache = {
  get(teamId: string, now: number): Promise<TeamPolicy>;
  /** drop a team's entry after a local write (activation, ceiling change) so the next read is fresh */
  invalidate(teamId: string): void;
};

export const DEFAULT_COMPILED = compileProfile(DEFAULT_PROFILE, DEFAULT_PROFILE_VERSION);

/**
 * Entries live `ttlMs`; another isolate's activation becomes visible here within that time.
 * Compilation happens once per (team, version), not per refresh.
 */
export function createTeamPolicyCache(store: PolicyStore, ttlMs = 1000): TeamPolicyCache {
  const entries = new Map<string, { policy: TeamPolicy; freshUntil: number }>();
  const inflight = new Map<string, Promise<TeamPolicy>>();

  async function load(teamId: string, now: number): Promise<TeamPolicy> {
    const [active, ceiling] = await Promise.all([store.activeProfile(teamId), store.modeCeiling(teamId)]);
    const previous = entries.get(teamId)?.policy.compiled;
    const compiled =
      active === null
        ? DEFAULT_COMPILED
        : previous?.version === active.version
          ? previous
          : compileProfile(active.body, active.version);
    const policy = { compiled, ceiling };
    entries.set(teamId, { policy, freshUntil: now + ttlMs });
    return policy;
  }

  return {
    async get(teamId, now) {
      const hit = entries.get(teamId);
      if (hit && hit.freshUntil > now) return hit.policy;
      let pending = inflight.get(teamId);
      if (!pending) {
        pending = load(teamId, now).finally(() => inflight.delete(teamId));
        inflight.set(teamId, pending);
      }
      return pending;
    },
    invalidate(teamId) {
      entries.delete(teamId);
    },
  };
}
