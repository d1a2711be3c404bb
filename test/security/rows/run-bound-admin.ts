// Finding 11 (decided: refused): a run-bound policy:admin token cannot propose team-wide profiles, gate rules or ceilings.
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/features/policy/default-profile";
import { call, token } from "../../helpers";
import { rows, startRun } from "../../run-helpers";
import { check } from "../table";

describe("run-bound admin tokens", () => {
  it("answer 403 on every team-wide proposal and store nothing", async () => {
    const unbound = await token("bound-admin");
    const run = await startRun(unbound);
    const bound = await token("bound-admin", ["policy:admin", "runs:read"], { runId: run.run_id });
    for (const [path, body] of [
      ["/v1/policy/profile", DEFAULT_PROFILE],
      ["/v1/policy/gates", { rules: [] }],
      ["/v1/policy/mode-ceiling", { ceiling: "observe" }],
    ] as const) {
      const res = await call("PUT", path, { token: bound, body });
      expect(check("run-bound admin", res.status === 403), `${path} → ${res.status} ${res.text}`).toBe(true);
    }
    const stored = await rows(
      "SELECT version FROM gate_rule WHERE team_id = ?1 UNION ALL SELECT version FROM policy_profile WHERE team_id = ?1",
      "bound-admin",
    );
    expect(check("run-bound admin", stored.length === 0)).toBe(true);
    const ok = await call("PUT", "/v1/policy/gates", { token: unbound, body: { rules: [] } });
    expect(check("run-bound admin", ok.status === 202)).toBe(true);
  });
});
