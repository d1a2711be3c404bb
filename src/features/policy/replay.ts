// Use-case: re-evaluate logged decisions under a candidate profile and report what would change.
import type { MemrlMode, MemrlPolicyProfile } from "../../../contracts/memrl-policy";
import {
  type CompiledProfile,
  compileProfile,
  type DecisionInput,
  decide,
  decisionInput,
  isKnownFailureClass,
} from "./evaluator";
import type { LoggedDecision } from "./store/policy-store-port";

export type ReplayChange = {
  decision_id: string;
  inputs: Record<string, unknown>;
  before: { rule_id: string; action: string; selected_action: string };
  after: { rule_id: string; action: string; selected_action: string };
};

export type ReplayReport = {
  total: number;
  changed: number;
  unchanged: number;
  by_rule: { from_rule_id: string; to_rule_id: string; count: number }[];
  /** per failure class of the logged inputs (classLabel): decisions replayed and how many of them changed */
  by_class: { failure_class: string; decisions: number; changes: number }[];
  examples: ReplayChange[];
};

/**
 * The failure class a logged decision is counted under: a known MemRL class by its name, any other string as
 * `unknown` (a caller-chosen string is no class to acknowledge), no class at all as `missing`.
 */
export function classLabel(inputs: Record<string, unknown>): string {
  const c = inputs.failure_class;
  if (typeof c !== "string") return "missing";
  return isKnownFailureClass(c) ? c : "unknown";
}

const MAX_EXAMPLES = 20;

/**
 * Pure: the same logged decisions and candidate always give the same report. Each decision is replayed under the
 * ceiling it was made under, or under `ceiling` when given (what raising the mode ceiling would change). `compiled`:
 * the candidate already compiled, when the caller has it (a promotion's evidence compiles it once for every check).
 */
export function replayDecisions(
  candidate: MemrlPolicyProfile,
  logged: readonly LoggedDecision[],
  ceiling?: MemrlMode,
  compiled: CompiledProfile = compileProfile(candidate, -1),
): ReplayReport {
  const byRule = new Map<string, { from_rule_id: string; to_rule_id: string; count: number }>();
  const byClass = new Map<string, { failure_class: string; decisions: number; changes: number }>();
  const examples: ReplayChange[] = [];
  let changed = 0;
  for (const entry of logged) {
    const after = decide(compiled, decisionInput(entry.inputs as DecisionInput), { ceiling: ceiling ?? entry.ceiling });
    const label = classLabel(entry.inputs);
    const cls = byClass.get(label) ?? { failure_class: label, decisions: 0, changes: 0 };
    cls.decisions++;
    byClass.set(label, cls);
    const differs =
      after.action !== entry.raw_action ||
      after.selected_action !== entry.selected_action ||
      after.rule_id !== entry.rule_id;
    if (!differs) continue;
    changed++;
    cls.changes++;
    const k = `${entry.rule_id}\u0000${after.rule_id}`;
    const row = byRule.get(k) ?? { from_rule_id: entry.rule_id, to_rule_id: after.rule_id, count: 0 };
    row.count++;
    byRule.set(k, row);
    if (examples.length < MAX_EXAMPLES) {
      examples.push({
        decision_id: entry.decision_id,
        inputs: entry.inputs,
        before: { rule_id: entry.rule_id, action: entry.raw_action, selected_action: entry.selected_action },
        after: { rule_id: after.rule_id, action: after.action, selected_action: after.selected_action },
      });
    }
  }
  const by_rule = [...byRule.values()].sort(
    (a, b) =>
      b.count - a.count || a.from_rule_id.localeCompare(b.from_rule_id) || a.to_rule_id.localeCompare(b.to_rule_id),
  );
  const by_class = [...byClass.values()].sort((a, b) => a.failure_class.localeCompare(b.failure_class));
  return { total: logged.length, changed, unchanged: logged.length - changed, by_rule, by_class, examples };
}
