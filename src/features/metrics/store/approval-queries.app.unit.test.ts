// GET /v1/metrics and the team overview read human approvals through one query: same counts, same latencies, and a
// gate aborted by stopping its run counts in neither. The D1 stores over the D1 stand-in in Node.
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { nodeD1 } from "../../../../test/node-d1/d1";
import { STOP_ABORT_REASON } from "../../../lib/gate-outcome";
import { gateMetrics } from "../../learning/store/tables";
import { createD1OverviewStore } from "../../pages/store/overview-store";
import { approvalEvents } from "../../runs/store/tables";
import { createD1MetricsStore } from "./metrics-store";

const NOW = 1_800_000_000_000;
const env = { DB: await nodeD1() };

async function seed(teamId: string) {
  const db = drizzle(env.DB);
  const event = (gateId: string, decision: string, approver: string, reason: string | null, at = NOW - 1000) => ({
    id: `ev-${teamId}-${gateId}`,
    teamId,
    runId: "run-1",
    opId: `op-${gateId}`,
    gateId,
    policyKey: "wrong_value",
    decision,
    approver,
    reason,
    createdAt: at,
  });
  const metric = (gateId: string, decidedBy: string, latencyMs: number) => ({
    gateId,
    teamId,
    runId: "run-1",
    kind: "hard",
    openedAt: NOW - 10_000,
    decidedAt: NOW - 1000,
    decision: "allow",
    decidedBy,
    latencyMs,
  });
  await db
    .insert(approvalEvents)
    .values([
      event("g-auto", "auto_allow", "policy", null),
      event("g-policy", "allow", "policy", null),
      event("g-ann", "allow", "ann", null),
      event("g-bob", "deny", "bob", "wrong total"),
      event("g-stop", "abort", "ann", STOP_ABORT_REASON),
      event("g-timer", "allow", "timer", null),
      event("g-old", "allow", "ann", null, NOW - 90_000_000),
    ]);
  await db
    .insert(gateMetrics)
    .values([
      metric("g-ann", "ann", 4000),
      metric("g-bob", "bob", 1500),
      metric("g-stop", "ann", 9000),
      metric("g-timer", "timer", 60_000),
    ]);
}

describe("human approvals: one query for metrics and the overview", () => {
  it("count people's decisions (not the policy, a timer or a run stop) and their latencies, shortest first", async () => {
    await seed("aq-a");
    await seed("aq-other");
    const since = NOW - 86_400_000;
    const metrics = await createD1MetricsStore(drizzle(env.DB)).teamMetrics("aq-a", since, since);
    const overview = await createD1OverviewStore(drizzle(env.DB)).teamOverview("aq-a", since);
    expect(overview.approvals).toEqual({ auto: 2, human: 2, humanLatenciesMs: [1500, 4000] });
    expect({ auto: metrics.autoApprovals, human: metrics.humanApprovals, latencies: metrics.humanLatenciesMs }).toEqual(
      { auto: 2, human: 2, latencies: [1500, 4000] },
    );
  });
});
