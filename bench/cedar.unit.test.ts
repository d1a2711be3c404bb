// The bench's Cedar encoding of the default profile agrees with decide() over the whole input space, and the check has teeth.
import { describe, expect, it } from "vitest";
import { cedarMismatches, cedarPolicies } from "./cedar";
import { wholeInputSpace } from "./evaluator";

describe("Cedar encoding of the default profile", () => {
  const inputs = wholeInputSpace();

  it("decides every input × ceiling like decide() (selected action)", () => {
    const { checked, mismatches } = cedarMismatches(inputs);
    expect(checked).toBe(inputs.length * 3);
    expect(mismatches).toBe(0);
  });

  it("finds mismatches in an encoding that forgets crank_blocked escalates in enforce", () => {
    const wrong = cedarPolicies().replace(`!((context has memrl_mode`, `((context has memrl_mode`);
    expect(wrong).not.toBe(cedarPolicies());
    expect(cedarMismatches(inputs, wrong).mismatches).toBeGreaterThan(0);
  });
});
