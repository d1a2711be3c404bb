// Finding 8 and the concurrency rows: parallel policy proposals, approvals, leases and completions, read back after.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { makeDeps } from "../../../src/deps";
import { DEFAULT_PROFILE } from "../../../src/features/policy/default-profile";
import { approvalEvents, attempts as attemptRows } from "../../../src/features/runs/store/tables";
import { call, token } from "../../helpers";
import { addOrder, complete, lease, startRun, teamTokens } from "../../run-helpers";

/** whether the team's gate-rule set or profile of this version is stored, read through its owner's store */
const storedVersion = {
  gate_rule: async (team: string, v: number) => (await makeDeps(env).gateRuleStore.get(team, v)) !== null,
  policy_profile: async (team: string, v: number) => (await makeDeps(env).policyStore.getProfile(team, v)) !== null,
};
// the D1 mirror of attempts and approvals has no read in the runs feature's RunRecordStore port: typed drizzle reads of
// its own tables
const attemptsWithOp = (opId: string) => drizzle(env.DB).select().from(attemptRows).where(eq(attemptRows.opId, opId));
const approvalsOfRun = (runId: string) =>
  drizzle(env.DB).select().from(approvalEvents).where(eq(approvalEvents.runId, runId));

import { tally } from "../table";

describe("concurrency", () => {
  it("gives 50 parallel gate-rule and profile proposals 50 distinct versions each, never a 5xx", async () => {
    const t = await teamTokens("conc-proposals");
    for (const [path, body, table] of [
      ["/v1/policy/gates", (i: number) => ({ rules: [{ policy_key: `k${i}`, kind: "auto" }] }), "gate_rule"],
      ["/v1/policy/profile", () => DEFAULT_PROFILE, "policy_profile"],
    ] as const) {
      const res = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call("PUT", path, { token: t.admin, body: body(i) })),
      );
      const ok = res.filter((r) => r.status === 202).length;
      const versions = new Set(res.map((r) => r.json?.version));
      // the distinct versions answered that the owner's store holds
      const held = await Promise.all([...versions].map((v) => storedVersion[table]("conc-proposals", Number(v))));
      const lost = 50 - held.filter(Boolean).length;
      tally("concurrency: proposals", { tried: 50, passed: ok, lost, duplicated: 50 - versions.size });
      expect(res.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);
      expect(ok).toBe(50);
      expect(versions.size).toBe(50);
      expect(lost).toBe(0);
    }
  });

  it("leases an order to exactly one of 40 parallel workers and completes it once", async () => {
    const tok = await token("conc-lease");
    const run = await startRun(tok);
    await addOrder(tok, run.run_id, "o1");
    const leases = await Promise.all(Array.from({ length: 40 }, (_, i) => lease(tok, run.run_id, "o1", `w${i}`)));
    const won = leases.filter((r) => r.status === 200);
    tally("concurrency: leases", { tried: 40, passed: won.length === 1 ? 40 : 0, duplicated: won.length - 1 });
    expect(won).toHaveLength(1);
    const l = won[0]?.json;
    const body = { lease_id: l.lease_id, epoch: l.epoch, op_id: "done", outcome: "PASS", output: { x: 1 } };
    const done = await Promise.all(Array.from({ length: 40 }, () => complete(tok, run.run_id, "o1", body)));
    const attempts = await attemptsWithOp("done");
    tally("concurrency: completions", {
      tried: 40,
      passed: done.filter((r) => r.status === 200).length,
      duplicated: Math.max(0, attempts.length - 1),
      lost: attempts.length === 0 ? 1 : 0,
    });
    expect(new Set(done.map((r) => r.text)).size).toBe(1);
    expect(attempts).toHaveLength(1);
  });

  it("ends 40 parallel approve/deny races with exactly one decision", async () => {
    const t = await teamTokens("conc-approve");
    const run = await startRun(t.worker);
    await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: t.worker,
      body: { op_id: "g1", policy_key: "wrong_value" },
    });
    const res = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call("POST", "/v1/approvals", {
          token: t.approver,
          body: {
            run_id: run.run_id,
            op_id: "g1",
            policy_key: "wrong_value",
            decision: i % 2 ? "deny" : "approve_retry",
            note: "reviewed",
          },
        }),
      ),
    );
    const approvals = await approvalsOfRun(run.run_id);
    tally("concurrency: approvals", {
      tried: 40,
      passed: res.filter((r) => r.status < 500).length,
      duplicated: Math.max(0, approvals.length - 1),
      lost: approvals.length === 0 ? 1 : 0,
    });
    expect(approvals).toHaveLength(1);
  });
});
