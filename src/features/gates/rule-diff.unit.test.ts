// mergeGateRules and diffGateRules: PATCH replaces the named keys in place and keeps the rest; the diff is per key.
import { describe, expect, it } from "vitest";
import { diffGateRules, mergeGateRules } from "./rule-diff";
import { DEFAULT_GATE_RULES, type GateRule } from "./rules";

describe("mergeGateRules", () => {
  it("replaces the rules of the keys it names, in place, and keeps every other default", () => {
    const patch: GateRule[] = [{ policy_key: "schema_rewrite", kind: "soft", timeout_ms: 600_000 }];
    const merged = mergeGateRules(DEFAULT_GATE_RULES, patch);
    expect(merged).toHaveLength(DEFAULT_GATE_RULES.length);
    expect(merged.find((r) => r.policy_key === "schema_rewrite")).toEqual(patch[0]);
    expect(merged.filter((r) => r.policy_key === "budget_increase")).toEqual(
      DEFAULT_GATE_RULES.filter((r) => r.policy_key === "budget_increase"),
    );
    expect(merged.findIndex((r) => r.policy_key === "schema_rewrite")).toBe(
      DEFAULT_GATE_RULES.findIndex((r) => r.policy_key === "schema_rewrite"),
    );
  });

  it("appends keys the active set does not have", () => {
    const merged = mergeGateRules(DEFAULT_GATE_RULES, [{ policy_key: "deploy_prod", kind: "deny" }]);
    expect(merged.at(-1)).toEqual({ policy_key: "deploy_prod", kind: "deny" });
  });
});

describe("diffGateRules", () => {
  it("names added, removed and changed keys", () => {
    const proposed: GateRule[] = [
      { policy_key: "wrong_value", kind: "deny" },
      { policy_key: "new_key", kind: "auto" },
    ];
    const d = diffGateRules(
      [
        { policy_key: "wrong_value", kind: "hard" },
        { policy_key: "pii_detected", kind: "hard" },
      ],
      proposed,
    );
    expect(d).toEqual({
      added: ["new_key"],
      removed: ["pii_detected"],
      changed: [
        { policy_key: "wrong_value", before: [{ policy_key: "wrong_value", kind: "hard" }], after: [proposed[0]] },
      ],
    });
    expect(diffGateRules(DEFAULT_GATE_RULES, DEFAULT_GATE_RULES)).toEqual({ added: [], removed: [], changed: [] });
  });
});
