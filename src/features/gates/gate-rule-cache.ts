// Per-isolate cache of each team's active gate rules (1 s TTL, invalidated locally on activation).
import type { GateRuleStore } from "../../ports/gate-rule-store";
import { type ActiveGateRules, DEFAULT_ACTIVE_GATE_RULES, GateRuleSet } from "./rules";

export type GateRuleCache = {
  get(teamId: string, now: number): Promise<ActiveGateRules>;
  invalidate(teamId: string): void;
};

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
  const entries = new Map<string, { rules: ActiveGateRules; freshUntil: number }>();
  const inflight = new Map<string, Promise<ActiveGateRules>>();

  async function load(teamId: string, now: number): Promise<ActiveGateRules> {
    const active = await store.active(teamId);
    const rules = active === null ? DEFAULT_ACTIVE_GATE_RULES : parseStoredRules(active.version, active.body);
    entries.set(teamId, { rules, freshUntil: now + ttlMs });
    return rules;
  }

  return {
    async get(teamId, now) {
      const hit = entries.get(teamId);
      if (hit && hit.freshUntil > now) return hit.rules;
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
