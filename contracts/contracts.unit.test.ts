// Drift test: each contract's checked-in JSON Schema matches its zod source, and every example validates against both.
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { CONTRACTS, toJsonSchema } from "./index";

const files = import.meta.glob<{ default: unknown }>("./*.json", { eager: true });
const json = (file: string) => files[`./${file}`]?.default;

describe("contracts", () => {
  it.each(CONTRACTS.map((c) => [c.name, c] as const))("%s.schema.json matches its zod source", (name, contract) => {
    expect(json(`${name}.schema.json`), "run `npm run contracts` after changing the zod source").toEqual(
      toJsonSchema(name, contract.schema),
    );
  });

  const examples = Object.keys(files).filter((f) => f.includes("example"));

  it("has at least one example per contract", () => {
    for (const { name } of CONTRACTS) expect(examples.some((f) => f.startsWith(`./${name}.`))).toBe(true);
  });

  it.each(examples)("%s is valid against its JSON Schema and its zod source", (file) => {
    const contract = CONTRACTS.find((c) => file.startsWith(`./${c.name}.`));
    expect(contract, `no contract for ${file}`).toBeDefined();
    const example = files[file]?.default;
    const validator = new Validator(json(`${contract?.name}.schema.json`) as object, "2020-12");
    const result = validator.validate(example);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(contract?.schema.safeParse(example).success).toBe(true);
  });

  it("the JSON Schema rejects what zod rejects (a rule with an unknown failure class)", () => {
    const example = structuredClone(json("memrl-policy.profile.example.json")) as {
      rules: { failure_class: string }[];
    };
    (example.rules[0] as { failure_class: string }).failure_class = "disk_full";
    const validator = new Validator(json("memrl-policy.schema.json") as object, "2020-12");
    expect(validator.validate(example).valid).toBe(false);
  });

  it("session_event.v1: both refuse a failure_cause on an episode that did not escalate, or an index out of range", () => {
    const failed = json("session-event.v1.fallback.example.json") as Record<string, unknown>;
    const contract = CONTRACTS.find((c) => c.name === "session-event.v1");
    const validator = new Validator(json("session-event.v1.schema.json") as object, "2020-12");
    for (const bad of [
      { ...failed, outcome: "resolved" },
      { ...failed, episode_index: 64 },
    ]) {
      expect(validator.validate(bad).valid).toBe(false);
      expect(contract?.schema.safeParse(bad).success).toBe(false);
    }
    const resolved: Record<string, unknown> = { ...failed, outcome: "resolved" };
    delete resolved.failure_cause;
    expect(validator.validate(resolved).valid).toBe(true);
    expect(contract?.schema.safeParse(resolved).success).toBe(true);
  });
});
