// The gate SLA breach sweep in Node (D1 and Durable Object stand-ins): an open gate past its acknowledge SLA raises one ops alert, a second
// sweep past due raises none, the resolve SLA raises its own once; acknowledged and decided gates raise no ack alert.
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { makeDeps } from "../../deps";
import { breachKey } from "../gates/domain";
import type { SlaBreach } from "../gates/store/gate-sla-store-port";
import { ROLLBACK_CRON, runScheduled } from "../sweeps/scheduled";
import { alertGateSlaBreaches } from "./sla-alerts";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const MIN = 60_000;
const TEAM = "sla-alerts";
const { call, deps, env, drainAll, installSlack, startRun, teamTokens } = await nodeSlackHelpers();

/** the gate_sla_alert rows of these gates, as { gate_id, breach } by gate then breach, through the SLA store */
async function alertedBreaches(...gateIds: string[]) {
  const breaches: SlaBreach[] = ["ack", "resolve"];
  const keys = gateIds.flatMap((gate_id) => breaches.map((breach) => ({ gate_id, breach })));
  const alerted = await deps.gateSla.alerted(keys);
  return keys.filter((k) => alerted.has(breachKey(k.gate_id, k.breach)));
}

async function openHardGate(opId: string) {
  const t = await teamTokens(TEAM);
  const run = await startRun(t.worker);
  const g = await call("POST", `/v1/runs/${run.run_id}/gates`, {
    token: t.worker,
    body: { policy_key: "wrong_value", op_id: opId },
  });
  await drainAll();
  const row = (await deps.gateSla.gatesOpenedSince(TEAM, 0, 100)).find((r) => r.gate_id === g.json.gate_id);
  return { t, gateId: g.json.gate_id as string, openedAt: row?.opened_at ?? 0 };
}

function recording() {
  const sent: SlackOutboxMessage[] = [];
  const deps = makeDeps(env, { slackOutbox: { send: async (m) => void sent.push(...m) } });
  const alerts = () => sent.flatMap((m) => (m.kind === "post" && m.key.startsWith(`alert:${TEAM}:gate_`) ? [m] : []));
  return { deps, sent, alerts };
}

describe("gate SLA breach alerts", () => {
  it("alerts an unacknowledged gate once past its ack SLA, and once more past its resolve SLA", async () => {
    await installSlack(TEAM, "T0SLAALERT");
    const { gateId, openedAt } = await openHardGate("op-late");
    const r = recording();
    expect(await alertGateSlaBreaches(r.deps, openedAt + 4 * MIN)).toBe(0);
    // 30 minutes covers the off-hours SLA too: the test runs whenever the machine's clock says
    expect(await alertGateSlaBreaches(r.deps, openedAt + 31 * MIN)).toBe(1);
    expect(await alertGateSlaBreaches(r.deps, openedAt + 32 * MIN)).toBe(0);
    const first = r.alerts();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ channel: "ops", key: expect.stringContaining("gate_ack_sla_breach") });
    expect(first[0]?.text).toContain(`sev2 gate wrong_value (${gateId})`);
    expect(first[0]?.text).toContain("nobody acknowledged it");
    expect(await alertGateSlaBreaches(r.deps, openedAt + 61 * MIN)).toBe(1);
    expect(await alertGateSlaBreaches(r.deps, openedAt + 90 * MIN)).toBe(0);
    expect(r.alerts().map((m) => m.key.split(":")[2])).toEqual(["gate_ack_sla_breach", "gate_resolve_sla_breach"]);
    expect((await alertedBreaches(gateId)).map(({ breach }) => ({ breach }))).toEqual([
      { breach: "ack" },
      { breach: "resolve" },
    ]);
  });

  it("raises no ack alert for an acknowledged or decided gate; the resolve SLA still counts for the acknowledged one", async () => {
    await installSlack(TEAM, "T0SLAALERT");
    const acked = await openHardGate("op-acked");
    const decided = await openHardGate("op-decided");
    expect((await call("POST", `/v1/gates/${acked.gateId}/ack`, { token: acked.t.approver })).status).toBe(200);
    const d = await call("POST", `/v1/gates/${decided.gateId}/decision`, {
      token: decided.t.approver,
      body: { decision: "deny", note: "wrong" },
    });
    expect(d.status).toBe(200);
    await drainAll();
    const r = recording();
    await alertGateSlaBreaches(r.deps, acked.openedAt + 31 * MIN);
    expect(await alertedBreaches(acked.gateId, decided.gateId)).toEqual([]);
    await alertGateSlaBreaches(r.deps, acked.openedAt + 61 * MIN);
    expect(await alertedBreaches(acked.gateId, decided.gateId)).toEqual([{ gate_id: acked.gateId, breach: "resolve" }]);
  });

  it("runs with the 5-minute cron under its own lease", async () => {
    const r = recording();
    const out = await runScheduled(ROLLBACK_CRON, 4242, r.deps, Date.now(), "inv-sla");
    expect(out.map((o) => o.sweep)).toEqual(["rollback", "reconcile", "gate_sla"]);
    expect(out[2]).toMatchObject({ sweep: "gate_sla", ran: true });
  });
});
