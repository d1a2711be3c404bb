// Findings 5 and 6: budget increases add up against the run's original budget; heartbeat and completion belong to
// the lease holder's subject, and live lease ids are never shown to readers.
import { describe, expect, it } from "vitest";
import type { MatrixHelpers } from "../matrix-helpers";
import { check, tally } from "../table";

/** Registers the rows of this file over `h` (Node stand-ins or workerd). */
export function describeLeasesBudget(h: MatrixHelpers): void {
  const { call, complete, fireAlarm, leasedOrder, runState, setClock, startRun, teamTokens } = h;

  describe("leases", () => {
    it("refuses heartbeat and completion from another subject of the same team, changing nothing", async () => {
      const t = await teamTokens("lease-holder");
      const { runId, orderId, lease } = await leasedOrder(t.worker);
      const before = await runState(runId);
      const hb = await call("POST", `/v1/runs/${runId}/orders/${orderId}/heartbeat`, {
        token: t.approver,
        body: { lease_id: lease.lease_id, epoch: lease.epoch },
      });
      expect(check("lease holder", hb.status === 403), hb.text).toBe(true);
      const forged = await complete(t.approver, runId, orderId, {
        lease_id: lease.lease_id,
        epoch: lease.epoch,
        op_id: "forged",
        outcome: "PASS",
        output: { forged: true },
      });
      expect(check("lease holder", forged.status === 403), forged.text).toBe(true);
      const after = await runState(runId);
      const lost = JSON.stringify(after.orders) === JSON.stringify(before.orders) ? 0 : 1;
      tally("lease holder", { tried: 1, passed: 1 - lost, lost });
      expect(lost).toBe(0);
      const own = await complete(t.worker, runId, orderId, {
        lease_id: lease.lease_id,
        epoch: lease.epoch,
        op_id: "mine",
        outcome: "PASS",
        output: { ok: true },
      });
      expect(check("lease holder", own.status === 200), own.text).toBe(true);
    });

    it("never shows a live lease id in the run view", async () => {
      const t = await teamTokens("lease-hidden");
      const { runId, lease } = await leasedOrder(t.worker);
      const view = await call("GET", `/v1/runs/${runId}`, { token: t.approver });
      const leaked = view.text.includes(lease.lease_id) ? 1 : 0;
      tally("lease holder", { tried: 1, passed: 1 - leaked, leaked });
      expect(view.json.orders[0].lease).toMatchObject({ epoch: 1 });
      expect(leaked).toBe(0);
    });
  });

  describe("budget", () => {
    it("counts soft increases cumulatively against the original budget: the second +20 % waits for a human", async () => {
      const t = await teamTokens("budget-cap");
      const run = await startRun(t.worker, {
        goal: "spend carefully",
        budget: { input_tokens: 1000, output_tokens: 1000 },
      });
      const open = (op_id: string, pct: number) =>
        call("POST", `/v1/runs/${run.run_id}/gates`, {
          token: t.worker,
          body: { op_id, policy_key: "budget_increase", context: { increase_pct: pct } },
        });
      const first = await open("b1", 20);
      expect(check("budget cap", first.json.kind === "soft"), first.text).toBe(true);
      await setClock(run.run_id, first.json.deadline_at);
      await fireAlarm(run.run_id);
      let kinds = "";
      for (let i = 2; i <= 10; i++) kinds += (await open(`b${i}`, 20)).json.kind[0];
      expect(check("budget cap", kinds === "hhhhhhhhh"), kinds).toBe(true);
      await setClock(run.run_id, first.json.deadline_at + 3_600_000);
      await fireAlarm(run.run_id);
      const view = await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker });
      expect(check("budget cap", view.json.budget.input_tokens === 1200), JSON.stringify(view.json.budget)).toBe(true);
    });

    it("raises from the original budget, not compounding", async () => {
      const t = await teamTokens("budget-sum");
      const run = await startRun(t.worker, { goal: "g", budget: { input_tokens: 1000, output_tokens: 1000 } });
      for (const [op_id, pct] of [
        ["x1", 50],
        ["x2", 50],
      ] as const) {
        await call("POST", `/v1/runs/${run.run_id}/gates`, {
          token: t.worker,
          body: { op_id, policy_key: "budget_increase", context: { increase_pct: pct } },
        });
        await call("POST", "/v1/approvals", {
          token: t.approver,
          body: {
            run_id: run.run_id,
            op_id,
            policy_key: "budget_increase",
            decision: "approve_retry",
            note: "reviewed",
          },
        });
      }
      const view = await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker });
      expect(check("budget cap", view.json.budget.input_tokens === 2000), JSON.stringify(view.json.budget)).toBe(true);
    });
  });
}
