// The guard's work budget: text over the input cap or readings over the variant cap are refused before any rule runs.
import { describe, expect, it } from "vitest";
import { AppFailure, toWire } from "../../../errors";
import { GUARD_MAX_INPUT_CHARS, GUARD_MAX_VARIANT_CHARS, scanFields } from "./guard";

async function failureOf(value: string) {
  try {
    await scanFields([{ path: "text", value }]);
  } catch (e) {
    if (e instanceof AppFailure) return toWire(e.error, "req-1");
    throw e;
  }
  return null;
}

describe("guard budget", () => {
  it("refuses text over the input cap with a 413 that names the limit and never the text", async () => {
    const wire = await failureOf(`password=${"x".repeat(GUARD_MAX_INPUT_CHARS)}`);
    expect(wire?.status).toBe(413);
    expect(wire?.body.error.code).toBe("payload_too_large");
    expect(wire?.body.error.message).toContain(String(GUARD_MAX_INPUT_CHARS));
    expect(JSON.stringify(wire)).not.toContain("xxxx");
  });

  it("refuses text whose readings exceed the variant cap with a 422 guard.budget_exceeded", async () => {
    // each of these decodes to another reading of about the same size: Unicode folding, escapes, URL decoding
    const third = Math.floor(GUARD_MAX_INPUT_CHARS / 3) - 8;
    const value = `${"é".repeat(third)} ${"\\u0041".repeat(third / 6)} ${"%41".repeat(third / 3)}`;
    expect(value.length).toBeLessThanOrEqual(GUARD_MAX_INPUT_CHARS);
    const wire = await failureOf(value);
    expect(wire?.status).toBe(422);
    expect(wire?.body.error.code).toBe("rejected");
    expect(wire?.body.error.details).toEqual({ rule_ids: ["guard.budget_exceeded"] });
    expect(wire?.body.error.message).toContain(String(GUARD_MAX_VARIANT_CHARS));
  });

  it("scans text at the cap of the largest route (256 KiB) without a budget refusal", async () => {
    const verdict = await scanFields([{ path: "input_json", value: "a-".repeat(128 * 1024) }]);
    expect(verdict.ok).toBe(true);
  });
});
