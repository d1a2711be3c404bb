// Finding 22.8: ids that cannot be stored and read back the same (lone surrogates, control characters) are refused
// at creation with 400 naming the field, and nothing is created; a well-formed non-ASCII id works end to end.
import { describe, expect, it } from "vitest";
import { orderBody } from "../../run-calls";
import type { MatrixHelpers } from "../matrix-helpers";
import { check } from "../table";

/** Registers the rows of this file over `h` (Node stand-ins or workerd). */
export function describeMalformedIds(h: MatrixHelpers): void {
  const { addOrder, call, lease, startRun, token } = h;

  const ROW = "malformed ids";

  describe("malformed ids", () => {
    it("refuse order, task, op and approval ids with a lone surrogate or a control character, and create nothing", async () => {
      const tok = await token("bad-ids");
      const run = await startRun(tok);
      for (const bad of ["o\ud800", "\udc00", "o\u0000", "o\u200e"]) {
        for (const field of ["order_id", "task_id"]) {
          const res = await call("POST", `/v1/runs/${run.run_id}/orders`, {
            token: tok,
            body: orderBody("ok-id", { [field]: bad }),
          });
          const named = res.json?.error?.details?.issues?.some((i: { path: string }) => i.path === field);
          expect(
            check(ROW, res.status === 400 && named === true),
            `${field} ${JSON.stringify(bad)} → ${res.status}`,
          ).toBe(true);
        }
        const gate = await call("POST", `/v1/runs/${run.run_id}/gates`, {
          token: tok,
          body: { policy_key: "x", op_id: bad },
        });
        expect(check(ROW, gate.status === 400), `gate op_id → ${gate.status}`).toBe(true);
        const approval = await call("POST", "/v1/approvals", {
          token: tok,
          body: { run_id: run.run_id, op_id: bad, policy_key: "x", decision: "deny" },
        });
        expect(check(ROW, approval.status === 400), `approval op_id → ${approval.status}`).toBe(true);
      }
      const view = await call("GET", `/v1/runs/${run.run_id}`, { token: tok });
      expect(check(ROW, view.json.orders.length === 0)).toBe(true);
      // a well-formed id in any script is leasable
      await addOrder(tok, run.run_id, "übersetzung-文書-1");
      const leased = await lease(tok, run.run_id, encodeURIComponent("übersetzung-文書-1"));
      expect(check(ROW, leased.status === 200), `${leased.status} ${leased.text}`).toBe(true);
    });
  });
}
