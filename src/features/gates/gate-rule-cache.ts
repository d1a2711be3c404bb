// Per-isolate cache of each team's active gate rules (1 s TTL, invalidated locally on activation).
import { createTeamCache, type TeamCache } from "../../lib/team-cache";
import type { GateRuleStore } from "../../ports/gate-rule-store";
import { type ActiveGateRules, DEFAULT_ACTIVE_GATE_RULES, GateRuleSet } from "./rules";

export type GateRuleCache = TeamCache<ActiveGateRules>;

/** A stored set that no longer parses falls back to the default matrix (fail closed: unknown keys stay hard). */
export function parseStoredRules(version: number, body: unknown): ActiveGateRules {
  const parsed = GateRuleSet.safeParse(body);
  if (!parsed.success) {
    console.warn(JSON.stringify({ level: "warn", msg: "stored gate rules do not parse; using defaults", version }));
    return DEFAULT_ACTIVE_GATE_RULES;
  }
  return { version, rules: parsed.data.rules };
}

export function createGateRuleCache(store: GateRuleStore, ttlMs = 1000): GateRuleCache {
  return createTeamCache(async (teamId) => {
    const active = await store.active(teamId);
    return active === null ? DEFAULT_ACTIVE_GATE_RULES : parseStoredRules(active.version, active.body);
  }, ttlMs);
}
