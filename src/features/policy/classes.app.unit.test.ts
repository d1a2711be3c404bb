// Failure-class vocabularies as data, through the whole app in Node (nodeWarden): GET /v1/policy/classes, the enums in /openapi.json, decide's mapping, warnings,
// mode ceiling, and a demotion's trigger named where the profile is read.
import { describe, expect, it } from "vitest";
import { RUN_TO_MEMRL } from "../../../contracts/failure-classes";
import { FAILURE_CLASSES } from "../../../contracts/memrl-policy";
import { nodeHelpers } from "../../../test/node-d1/app";
import { TAXONOMY } from "../runs/taxonomy";

const { call, deps, token } = await nodeHelpers();

const decide = (tok: string, body: Record<string, unknown>) => call("POST", "/v1/policy/decide", { token: tok, body });

describe("GET /v1/policy/classes", () => {
  it("lists both vocabularies and the mapping runs use", async () => {
    const res = await call("GET", "/v1/policy/classes", { token: await token("cls-a", ["runs:read"]) });
    expect(res.status, res.text).toBe(200);
    expect(res.json.memrl).toEqual([...FAILURE_CLASSES]);
    expect([...res.json.run_taxonomy].sort()).toEqual(Object.keys(TAXONOMY).sort());
    for (const [cls, rule] of Object.entries(TAXONOMY)) expect(res.json.run_to_memrl[cls], cls).toBe(rule.memrl);
  });

  it("publishes both lists as enums in /openapi.json", async () => {
    const doc = (await call("GET", "/openapi.json")).json;
    expect(doc.components.schemas.MemrlFailureClass.enum).toEqual([...FAILURE_CLASSES]);
    expect([...doc.components.schemas.RunFailureClass.enum].sort()).toEqual(Object.keys(RUN_TO_MEMRL).sort());
  });
});

describe("POST /v1/policy/decide vocabularies", () => {
  it("decides a run-taxonomy class as its MemRL class and says so", async () => {
    const tok = await token("cls-map", ["policy:decide"]);
    const res = await decide(tok, { memrl_mode: "enforce", failure_class: "timeout", attempt: 1, max_attempts: 3 });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      failure_class: "phase_timeout",
      rule_id: "enforce.phase_timeout.initial",
      action: "retry",
      mode_ceiling: "enforce",
    });
    expect(res.json.warnings).toEqual([expect.stringContaining('"timeout" is a run-taxonomy class')]);
  });

  it("still fails closed on an unknown class, with a warning naming it", async () => {
    const tok = await token("cls-unknown", ["policy:decide"]);
    const res = await decide(tok, { memrl_mode: "enforce", failure_class: "flaky", attempt: 1, max_attempts: 3 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ rule_id: "default.unknown_failure_class", action: "escalate" });
    expect(res.json.warnings[0]).toContain('unknown failure_class "flaky"');
    expect(res.json.warnings[0]).toContain("GET /v1/policy/classes");
  });

  it("answers a known class without warnings and always with the team's mode ceiling", async () => {
    const tok = await token("cls-ceiling", ["policy:decide", "policy:admin"]);
    const ok = await decide(tok, { memrl_mode: "enforce", failure_class: "vibe_fail", attempt: 2, max_attempts: 3 });
    expect(ok.json.warnings).toBeUndefined();
    expect(ok.json.mode_ceiling).toBe("enforce");
    await deps.policyStore.setModeCeiling(
      "cls-demoted",
      "off",
      "rollback trigger off_missing_metadata: missing_metadata_count >= 1 (value 1)",
      1,
    );
    const demoted = await token("cls-demoted", ["policy:decide"]);
    const res = await decide(demoted, {
      memrl_mode: "enforce",
      failure_class: "vibe_fail",
      attempt: 1,
      max_attempts: 3,
    });
    expect(res.json).toMatchObject({ requested_mode: "enforce", memrl_mode: "off", mode_ceiling: "off" });
    // the profile names the demotion's trigger; so does the mode-ceiling route
    const profile = await call("GET", "/v1/policy/profile", { token: demoted });
    expect(profile.headers.get("x-mode-ceiling")).toBe("off");
    expect(profile.headers.get("x-mode-ceiling-reason")).toContain("off_missing_metadata");
    const ceiling = await call("GET", "/v1/policy/mode-ceiling", { token: demoted });
    expect(ceiling.json).toMatchObject({ ceiling: "off", reason: expect.stringContaining("off_missing_metadata") });
  });

  it("refuses a failure_class that is not a short string", async () => {
    const tok = await token("cls-bad", ["policy:decide"]);
    expect((await decide(tok, { failure_class: 7, attempt: 1 })).status).toBe(400);
    expect((await decide(tok, { failure_class: "", attempt: 1 })).status).toBe(400);
    expect((await decide(tok, { failure_class: "x".repeat(65), attempt: 1 })).status).toBe(400);
  });
});
