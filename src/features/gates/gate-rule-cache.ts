// Per-isolate cache of each team's active gate rules and approval outage (1 s TTL, invalidated locally on activation).
import { log } from "../../lib/log";
import { createTeamCache, type TeamCache } from "../../lib/team-cache";
import type { SlackDeliveryHealth } from "../slack/domain";
import { type ActiveGateRules, DEFAULT_ACTIVE_GATE_RULES, GateRuleSet } from "./rules";
import type { GateRuleStore } from "./store/gate-rule-store-port";

export type GateRuleCache = TeamCache<ActiveGateRules>;

/** A stored set that no longer parses falls back to the default matrix (fail closed: unknown keys stay hard). */
export function parseStoredRules(version: number, body: unknown): ActiveGateRules {
  const parsed = GateRuleSet.safeParse(body);
  if (!parsed.success) {
    log.warn("stored gate rules do not parse; using defaults", { version });
    return DEFAULT_ACTIVE_GATE_RULES;
  }
  return { version, rules: parsed.data.rules };
}

/**
 * `outages` (optional): the team's approval outage is read with its rules, in parallel and under the same TTL, so
 * opening a gate pays no D1 read of its own; an unreadable outage counts as none (the rules still load).
 */
export function createGateRuleCache(
  store: GateRuleStore,
  ttlMs = 1000,
  outages?: Pick<SlackDeliveryHealth, "outage">,
): GateRuleCache {
  return createTeamCache(async (teamId) => {
    const [active, outage] = await Promise.all([
      store.active(teamId),
      outages?.outage(teamId).catch((e) => {
        log.error("approval outage unreadable", { error: String(e) });
        return null;
      }) ?? null,
    ]);
    const rules = active === null ? DEFAULT_ACTIVE_GATE_RULES : parseStoredRules(active.version, active.body);
    return outage ? { ...rules, outage } : rules;
  }, ttlMs);
}
