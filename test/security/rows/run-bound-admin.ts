// Finding 11 (decided: refused): a run-bound policy:admin token cannot propose any team-wide deploy — profiles, gate
// rules (replaced or merged), ceilings, limits, the approver roster, route pins.
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/features/policy/default-profile";
import type { MatrixHelpers } from "../matrix-helpers";
import { check } from "../table";

/** Registers the rows of this file over `h` (Node stand-ins or workerd). */
export function describeRunBoundAdmin(h: MatrixHelpers): void {
  const { call, rows, startRun, token } = h;

  describe("run-bound admin tokens", () => {
    it("answer 403 on every team-wide proposal and store nothing", async () => {
      const unbound = await token("bound-admin");
      const run = await startRun(unbound);
      const bound = await token("bound-admin", ["policy:admin", "runs:read"], { runId: run.run_id });
      const pin = { need_fingerprint: "ab".repeat(16), route_id: "route-a", action: "pin" };
      for (const [method, path, body] of [
        ["PUT", "/v1/policy/profile", DEFAULT_PROFILE],
        ["PUT", "/v1/policy/gates", { rules: [] }],
        ["PATCH", "/v1/policy/gates", { rules: [] }],
        ["PUT", "/v1/policy/mode-ceiling", { ceiling: "observe" }],
        // a raise above the class default: a deploy (lowering applies at once, within the team's own bounds)
        ["PUT", "/v1/limits", { limits: { decide: { per_team: 7000, per_subject: 1200 } } }],
        ["PUT", "/v1/policy/approvers", { approvers: ["user-a", "user-b"] }],
        ["POST", "/v1/routes/overrides", pin],
      ] as const) {
        const res = await call(method, path, { token: bound, body });
        expect(check("run-bound admin", res.status === 403), `${method} ${path} → ${res.status} ${res.text}`).toBe(
          true,
        );
      }
      const stored = await rows(
        `SELECT version FROM gate_rule WHERE team_id = ?1 UNION ALL SELECT version FROM policy_profile WHERE team_id = ?1
       UNION ALL SELECT team_id FROM team_limit_request WHERE team_id = ?1
       UNION ALL SELECT team_id FROM deploy_approver_request WHERE team_id = ?1
       UNION ALL SELECT team_id FROM route_pin_request WHERE team_id = ?1`,
        "bound-admin",
      );
      expect(check("run-bound admin", stored.length === 0)).toBe(true);
      const ok = await call("PUT", "/v1/policy/gates", { token: unbound, body: { rules: [] } });
      expect(check("run-bound admin", ok.status === 202)).toBe(true);
    });
  });
}
