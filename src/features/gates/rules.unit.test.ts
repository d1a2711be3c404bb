// Resolving a policy_key against a rule set (pure): first match wins, conditions, fail-closed fallbacks.
import { describe, expect, it } from "vitest";
import { type ActiveGateRules, DEFAULT_ACTIVE_GATE_RULES, GateRuleSet, resolveGate } from "./rules";

describe("resolveGate", () => {
  it("applies the first rule whose conditions hold", () => {
    const set: ActiveGateRules = {
      version: 3,
      rules: [
        { policy_key: "k", kind: "auto", when: { size: { lt: 10 }, env: { eq: "dev" } } },
        { policy_key: "k", kind: "soft", timeout_ms: 500, when: { size: { gte: 10, lte: 20 } } },
        { policy_key: "k", kind: "deny" },
      ],
    };
    expect(resolveGate(set, "k", { size: 5, env: "dev" })).toMatchObject({ kind: "auto", rule_id: "rules.v3#0" });
    expect(resolveGate(set, "k", { size: 5, env: "prod" })).toMatchObject({ kind: "deny", rule_id: "rules.v3#2" });
    expect(resolveGate(set, "k", { size: 20 })).toMatchObject({ kind: "soft", timeout_ms: 500 });
    expect(resolveGate(set, "k", { size: "20" })).toMatchObject({ kind: "deny" });
    expect(resolveGate(set, "other", {})).toMatchObject({ kind: "hard", rule_id: "default.unknown_policy_key" });
  });

  it("keeps policy_deploy hard whatever the rules say", () => {
    expect(
      resolveGate({ version: 1, rules: [{ policy_key: "policy_deploy", kind: "hard" }] }, "policy_deploy", {}).rule_id,
    ).toBe("builtin.policy_deploy");
    expect(GateRuleSet.safeParse({ rules: [{ policy_key: "policy_deploy", kind: "auto" }] }).success).toBe(false);
  });

  it("gives budget_increase a 60 s soft gate up to +20 % and a hard gate above or without a figure", () => {
    expect(resolveGate(DEFAULT_ACTIVE_GATE_RULES, "budget_increase", { increase_pct: 0 })).toMatchObject({
      kind: "soft",
      timeout_ms: 60_000,
    });
    expect(resolveGate(DEFAULT_ACTIVE_GATE_RULES, "budget_increase", { increase_pct: 21 }).kind).toBe("hard");
    expect(resolveGate(DEFAULT_ACTIVE_GATE_RULES, "budget_increase", { increase_pct: Number.NaN }).kind).toBe("hard");
  });
});

describe("GateRule severity", () => {
  it("takes sev2 or sev3 for a rule's gates and refuses any other", () => {
    const ok = GateRuleSet.safeParse({ rules: [{ policy_key: "schema_rewrite", kind: "hard", severity: "sev3" }] });
    expect(ok.success).toBe(true);
    const bad = GateRuleSet.safeParse({ rules: [{ policy_key: "schema_rewrite", kind: "hard", severity: "sev1" }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["rules", 0, "severity"]);
  });
});
