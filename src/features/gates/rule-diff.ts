// Gate-rule sets compared and merged by policy_key (pure): PATCH merges, and every deploy shows its diff.
import type { GateRule } from "./rules";

export type GateRuleDiff = {
  added: string[];
  removed: string[];
  changed: { policy_key: string; before: GateRule[]; after: GateRule[] }[];
};

const byKey = (rules: readonly GateRule[]) => {
  const out = new Map<string, GateRule[]>();
  for (const r of rules) out.set(r.policy_key, [...(out.get(r.policy_key) ?? []), r]);
  return out;
};

/** PATCH: the patch's rules replace, in place, the active rules of each policy_key it names; new keys go last. */
export function mergeGateRules(active: readonly GateRule[], patch: readonly GateRule[]): GateRule[] {
  const patched = byKey(patch);
  const out: GateRule[] = [];
  const placed = new Set<string>();
  for (const r of active) {
    const replacement = patched.get(r.policy_key);
    if (!replacement) out.push(r);
    else if (!placed.has(r.policy_key)) {
      out.push(...replacement);
      placed.add(r.policy_key);
    }
  }
  for (const [key, rules] of patched) if (!placed.has(key)) out.push(...rules);
  return out;
}

/** What a proposed rule set changes against the active one, per policy_key. */
export function diffGateRules(active: readonly GateRule[], proposed: readonly GateRule[]): GateRuleDiff {
  const a = byKey(active);
  const p = byKey(proposed);
  const diff: GateRuleDiff = { added: [], removed: [], changed: [] };
  for (const [key, rules] of p) {
    const before = a.get(key);
    if (!before) diff.added.push(key);
    else if (JSON.stringify(before) !== JSON.stringify(rules))
      diff.changed.push({ policy_key: key, before, after: rules });
  }
  for (const key of a.keys()) if (!p.has(key)) diff.removed.push(key);
  return diff;
}
