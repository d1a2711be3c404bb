// Finding 3: every stored free-text field of a run is guarded (422, nothing stored), and capability tokens are never stored.
import { describe, expect, it } from "vitest";
import type { MatrixHelpers } from "../matrix-helpers";
import { check, tally } from "../table";

/** Registers the rows of this file over `h` (Node stand-ins or workerd). */
export function describeGuardedFields(h: MatrixHelpers): void {
  const { addOrder, call, leasedOrder, runState, startRun, teamTokens } = h;

  const SECRET = "ghp_0123456789abcdefABCDEF0123456789abcd";
  const PII = "call me at alice@example.com";

  describe("guarded fields", () => {
    it("refuses a secret or PII in every stored free-text field, storing nothing", async () => {
      const t = await teamTokens("guard-fields");
      const { runId, orderId, lease } = await leasedOrder(t.worker);
      const before = JSON.stringify(await runState(runId));
      for (const value of [SECRET, PII]) {
        const tries: [string, () => Promise<{ status: number; text: string }>][] = [
          ["run goal", () => call("POST", "/v1/runs", { token: t.worker, body: { goal: `fix ${value}` } })],
          [
            "order goal",
            () =>
              call("POST", `/v1/runs/${runId}/orders`, {
                token: t.worker,
                body: {
                  order_id: "g1",
                  task_id: "t",
                  goal: value,
                  input_json: {},
                  output_schema_id: "s",
                  timeout_sec: 30,
                },
              }),
          ],
          [
            "order input",
            () =>
              call("POST", `/v1/runs/${runId}/orders`, {
                token: t.worker,
                body: {
                  order_id: "g2",
                  task_id: "t",
                  goal: "g",
                  input_json: { note: value },
                  output_schema_id: "s",
                  timeout_sec: 30,
                },
              }),
          ],
          [
            "output",
            () =>
              call("POST", `/v1/runs/${runId}/orders/${orderId}/complete`, {
                token: t.worker,
                body: { lease_id: lease.lease_id, epoch: 1, op_id: "c", outcome: "PASS", output: { text: value } },
              }),
          ],
          [
            "gate context",
            () =>
              call("POST", `/v1/runs/${runId}/gates`, {
                token: t.worker,
                body: { op_id: "x", policy_key: "wrong_value", context: { why: value } },
              }),
          ],
          [
            "approval note",
            () =>
              call("POST", "/v1/approvals", {
                token: t.approver,
                body: { run_id: runId, op_id: "y", policy_key: "wrong_value", decision: "deny", note: value },
              }),
          ],
          ["stop reason", () => call("POST", `/v1/runs/${runId}/stop`, { token: t.worker, body: { reason: value } })],
        ];
        for (const [name, attempt] of tries) {
          const res = await attempt();
          const leaked = res.text.includes(value) ? 1 : 0;
          tally("guard: stored fields", { tried: 1, passed: res.status === 422 && !leaked ? 1 : 0, leaked });
          expect(res.status, `${name}: ${res.text}`).toBe(422);
        }
      }
      expect(check("guard: stored fields", JSON.stringify(await runState(runId)) === before)).toBe(true);
    });

    it("never stores a work order's cap_token", async () => {
      const t = await teamTokens("guard-cap");
      const run = await startRun(t.worker);
      await addOrder(t.worker, run.run_id, "o1", { cap_token: "cap-secret-value-123" });
      const state = JSON.stringify(await runState(run.run_id));
      const view = await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker });
      const leaked = state.includes("cap-secret-value-123") || view.text.includes("cap-secret-value-123") ? 1 : 0;
      tally("guard: stored fields", { tried: 1, passed: 1 - leaked, leaked });
      expect(leaked).toBe(0);
    });
  });
}
