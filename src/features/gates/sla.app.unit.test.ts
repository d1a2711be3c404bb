// Gate SLAs over HTTP and on the ladder: GET/PUT /v1/gates/sla (defaults, audited change, bad settings refused with
// nothing stored) and an acknowledged gate's escalation pinging again once its resolve SLA is due.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { nodeGateTools } from "../../../test/node-d1/gate-tools";
import { NODE_SLACK_VARS } from "../../../test/node-d1/slack";
import type { SlackOutboxMessage } from "../slack/store/slack-store-port";
import { DEFAULT_GATE_SLA } from "./sla";

const helpers = await nodeHelpers({ vars: NODE_SLACK_VARS });
const { call, deps: appDeps, depsWith, drainAll, startRun, teamTokens, token } = helpers;
const { audited, deliver, installSlack } = nodeGateTools(helpers);

const BERLIN = {
  time_zone: "Europe/Berlin",
  business_hours: { days: [1, 2, 3, 4], start: "08:30", end: "18:00" },
  ack_minutes: { business: 10, off_hours: 45 },
  resolve: { sev2: { business_minutes: 120 }, sev3: { next_business_day: true } },
};

describe("GET/PUT /v1/gates/sla", () => {
  it("answers the seed's defaults until an admin sets the team's own, which is audited with before and after", async () => {
    const t = await teamTokens("sla-a");
    const before = await call("GET", "/v1/gates/sla", { token: t.approver });
    expect(before.status, before.text).toBe(200);
    expect(before.json).toEqual({
      team_id: "sla-a",
      source: "default",
      settings: DEFAULT_GATE_SLA,
      updated_by: null,
      updated_at: null,
    });
    const put = await call("PUT", "/v1/gates/sla", { token: t.admin, body: BERLIN });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ source: "team", settings: BERLIN, updated_by: "admin-sla-a" });
    const after = await call("GET", "/v1/gates/sla", { token: t.worker });
    expect(after.json).toMatchObject({ source: "team", settings: BERLIN, updated_by: "admin-sla-a" });
    const audit = await audited("sla-a", "gate_sla.updated");
    expect(audit).toHaveLength(1);
    expect(audit[0]?.metadata ?? {}).toEqual({ before: DEFAULT_GATE_SLA, after: BERLIN });
    // another team still has the defaults
    const other = await call("GET", "/v1/gates/sla", { token: (await teamTokens("sla-other")).worker });
    expect(other.json.source).toBe("default");
  });

  it("refuses settings that cannot work with 400 naming each path, and stores nothing", async () => {
    const t = await teamTokens("sla-b");
    const bad = await call("PUT", "/v1/gates/sla", {
      token: t.admin,
      body: {
        ...BERLIN,
        time_zone: "Mars/Olympus",
        business_hours: { days: [0, 8], start: "9", end: "09:30" },
        ack_minutes: { business: 0 },
        resolve: { sev2: { hours: 2 }, sev3: { next_business_day: false } },
        extra: true,
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("validation_failed");
    const paths = (bad.json.error.details.issues as { path: string }[]).map((i) => i.path);
    for (const p of ["time_zone", "business_hours.days.0", "business_hours.start", "ack_minutes.business"])
      expect(paths).toContain(p);
    expect(paths.some((p) => p.startsWith("resolve.sev2"))).toBe(true);
    expect(paths.some((p) => p.startsWith("resolve.sev3"))).toBe(true);
    const short = await call("PUT", "/v1/gates/sla", {
      token: t.admin,
      body: { ...BERLIN, business_hours: { days: [1], start: "09:00", end: "09:30" } },
    });
    expect(short.status).toBe(400);
    expect(short.json.error.details.issues[0]).toMatchObject({ path: "business_hours.end" });
    expect(await appDeps.gateSla.get("sla-b")).toBeNull();
    expect((await call("GET", "/v1/gates/sla", { token: t.worker })).json.source).toBe("default");
  });

  it("lets only a team admin change them: 403 without policy:admin or with a run-bound token", async () => {
    const reader = await token("sla-c", ["runs:read"], { sub: "r" });
    expect((await call("PUT", "/v1/gates/sla", { token: reader, body: BERLIN })).status).toBe(403);
    const bound = await token("sla-c", ["policy:admin"], { sub: "a", runId: "run_x" });
    const refused = await call("PUT", "/v1/gates/sla", { token: bound, body: BERLIN });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/run-bound/);
    expect((await call("GET", "/v1/gates/sla", { token: await token("sla-c", ["memory:read"]) })).status).toBe(403);
    expect(await appDeps.gateSla.get("sla-c")).toBeNull();
  });
});

describe("the escalation ladder and the resolve SLA", () => {
  it("keeps an acknowledged gate quiet until its resolve SLA is due, then pings it again", async () => {
    await installSlack("sla-d");
    const t = await teamTokens("sla-d");
    const run = await startRun(t.worker);
    const g = await call("POST", `/v1/runs/${run.run_id}/gates`, {
      token: t.worker,
      body: { policy_key: "wrong_value", op_id: "op-1" },
    });
    await drainAll();
    expect((await call("POST", `/v1/gates/${g.json.gate_id}/ack`, { token: t.approver })).status).toBe(200);
    // the D1 gate index's row, as its SLA reads it
    await drainAll();
    const opened = (await appDeps.gateSla.gatesOpenedSince("sla-d", 0, 100)).find((r) => r.gate_id === g.json.gate_id);
    const sent: SlackOutboxMessage[] = [];
    const deps = depsWith({ slackOutbox: { send: async (m) => void sent.push(...m) } });
    const escalated = (level: number, at: number) => ({
      event_id: `sla-esc-${level}`,
      type: "gate.escalated",
      team_id: "sla-d",
      run_id: run.run_id,
      occurred_at: at,
      gate_id: g.json.gate_id,
      op_id: "op-1",
      policy_key: "wrong_value",
      kind: "hard",
      rule_id: null,
      seq: 100 + level,
      opened_at: opened?.opened_at ?? 0,
      due_at: at,
      level,
    });
    const dueAt = (opened?.opened_at ?? 0) + 60 * 60_000; // sev2 by default: 60 minutes
    await deliver(deps, [escalated(1, dueAt - 45 * 60_000)]);
    await deliver(deps, [escalated(2, dueAt)]);
    const pings = sent.flatMap((m) => (m.kind === "post" && m.key.startsWith("escalation:") ? [m.key] : []));
    expect(pings).toEqual([`escalation:${g.json.gate_id}:2`]);
    const ids = ["aud_esc_sla-esc-1", "aud_esc_sla-esc-2"];
    const audit = (await audited("sla-d", "gate.escalated")).filter((a) => ids.includes(a.id));
    audit.sort((x, y) => x.id.localeCompare(y.id));
    expect(audit.map((a) => a.metadata)).toMatchObject([
      { level: 1, pinged: false, resolve_due_at: dueAt },
      { level: 2, pinged: true, resolve_due_at: dueAt },
    ]);
  });
});
