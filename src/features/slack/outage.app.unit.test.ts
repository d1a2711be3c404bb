// The approval outage (RB-06) in Node, over the run objects' and D1's stand-ins and the loopback Slack API server: risky
// gates deny while a team's Slack is down (as they open, and those already waiting when the outage starts), the alert
// reaches Slack when it is back, and the two-person override turns the fallback off until it expires.
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { nodeLoopbackSlack, nodeSlackHelpers } from "../../../test/node-d1/slack";
import { approvalEvents, tableRows } from "../../../test/node-d1/table-rows";
import { remoteSlackApi } from "../../../test/slack-api-remote";
import { batchOf, CHANNELS, outboxPost } from "../../../test/slack-bodies";
import { createSlackWebApi } from "../../adapters/slack/web-api";
import { auditLog } from "../audit/store/tables";
import { OUTAGE_APPROVER } from "../gates";
import { SLACK_OUTAGE_AFTER_FAILURES } from "./domain";
import { consumeSlackOutbox } from "./outbox";
import { createD1SlackDeliveryHealth } from "./store/slack-delivery-health";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const h = await nodeSlackHelpers();
const { call, depsWith, drainAll, env, installSlack, setClock, startRun, teamTokens, token } = h;
const recordRows = tableRows(h);
const loopback = nodeLoopbackSlack();
const outageSlack = () => remoteSlackApi("outage", loopback.origin());

const health = () => createD1SlackDeliveryHealth(drizzle(env.DB));
/** the team's Slack deliveries failed often enough to count as an outage (as the outbox consumer records them) */
async function startOutage(teamId: string, at: number) {
  for (let i = 0; i < SLACK_OUTAGE_AFTER_FAILURES; i++) await health().recordFailure(teamId, "http_500", at);
}
/** the team's audit entries about its outage override, in the order they were written */
const outageAudit = (teamId: string) =>
  recordRows(auditLog, and(eq(auditLog.teamId, teamId), eq(auditLog.subjectType, "slack_outage")), {
    actor: auditLog.actor,
    action: auditLog.action,
  });
const openGate = (tok: string, runId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/runs/${runId}/gates`, { token: tok, body });

describe("approval outage fallback", () => {
  it("denies hard gates as they open while the team's Slack is down (fallback_denied, not a human approval), leaves soft gates to their timer, and posts the alert to the ops channel when Slack is back", async () => {
    const TEAM = "outage-open";
    const t = await teamTokens(TEAM);
    const run = await startRun(t.worker);
    const since = Date.now();
    await startOutage(TEAM, since);

    const hard = await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-hard" });
    expect(hard.status, hard.text).toBe(200);
    expect(hard.json).toMatchObject({ kind: "hard", status: "denied", outcome: "fallback_denied" });
    const soft = await openGate(t.worker, run.run_id, { policy_key: "schema_invalid", op_id: "op-soft" });
    expect(soft.json).toMatchObject({ kind: "soft", status: "pending" });

    const gate = await call("GET", `/v1/runs/${run.run_id}/gates/${hard.json.gate_id}`, { token: t.admin });
    expect(gate.json).toMatchObject({
      status: "denied",
      outcome: "fallback_denied",
      channel: "outage_fallback",
      decided_by: OUTAGE_APPROVER,
    });
    expect(gate.json.note).toContain("approval outage");
    const approvals = await recordRows(approvalEvents, eq(approvalEvents.gateId, hard.json.gate_id), {
      decision: approvalEvents.decision,
      approver: approvalEvents.approver,
      outcome: approvalEvents.outcome,
      channel: approvalEvents.channel,
    });
    expect(approvals).toEqual([
      { decision: "deny", approver: OUTAGE_APPROVER, outcome: "fallback_denied", channel: "outage_fallback" },
    ]);
    const audit = await recordRows(
      auditLog,
      and(eq(auditLog.action, "gate.decided"), eq(auditLog.subjectId, hard.json.gate_id)),
      { actor: auditLog.actor },
    );
    expect(audit).toEqual([{ actor: OUTAGE_APPROVER }]);
    const metrics = await call("GET", "/v1/metrics", { token: t.admin });
    expect(metrics.json.gate_outcomes.fallback_denied).toBe(1);
    expect(metrics.json.human_approvals).toBe(0);

    // Slack is back: the next delivery that lands ends the outage and queues the alert, which the outbox posts
    await installSlack(TEAM, "T0OUTOPEN");
    const slack = outageSlack();
    await slack.reset();
    const queued: SlackOutboxMessage[] = [];
    const deps = depsWith({
      slackApi: createSlackWebApi(slack.url),
      slackOutbox: { send: async (m) => void queued.push(...m) },
      clock: { now: () => since + 60_000 },
    });
    await consumeSlackOutbox(batchOf([outboxPost(TEAM, "back")]).batch, deps);
    expect(await health().outage(TEAM)).toBeNull();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: "post", team_id: TEAM, channel: "ops" });
    const delivered = batchOf(queued);
    await consumeSlackOutbox(delivered.batch, deps);
    expect(delivered.fates[0]).toMatchObject({ acked: 1, retried: 0 });
    const alert = (await slack.requests()).filter((r) => r.path === "/api/chat.postMessage").at(-1);
    expect(alert?.body.channel).toBe(CHANNELS.ops);
    expect(alert?.body.text).toContain("1 gate(s)");
    expect(alert?.body.text).toContain(hard.json.gate_id);
    expect(alert?.body.text).toContain(run.run_id);
    expect(alert?.body.text).not.toContain(soft.json.gate_id);
  });

  it("denies the team's hard gates already waiting when the outage starts, through their runs, and no other team's", async () => {
    const TEAM = "outage-start";
    await installSlack(TEAM, "T0OUTSTART");
    const t = await teamTokens(TEAM);
    const other = await teamTokens("outage-bystander");
    const run = await startRun(t.worker);
    const otherRun = await startRun(other.worker);
    const hard = await openGate(t.worker, run.run_id, { policy_key: "pii_detected", op_id: "op-w1" });
    const soft = await openGate(t.worker, run.run_id, { policy_key: "schema_invalid", op_id: "op-w2" });
    const bystander = await openGate(other.worker, otherRun.run_id, { policy_key: "pii_detected", op_id: "op-b" });
    expect([hard.json.status, soft.json.status, bystander.json.status]).toEqual(["pending", "pending", "pending"]);
    await drainAll(); // the gate index lists them

    const slack = outageSlack();
    await slack.reset();
    await slack.script(
      "/api/chat.postMessage",
      ...Array.from({ length: SLACK_OUTAGE_AFTER_FAILURES }, () => ({ status: 500, body: "down" })),
    );
    const deps = depsWith({ slackApi: createSlackWebApi(slack.url) });
    const failing = batchOf(Array.from({ length: SLACK_OUTAGE_AFTER_FAILURES }, (_, i) => outboxPost(TEAM, `f${i}`)));
    await consumeSlackOutbox(failing.batch, deps);
    expect(failing.fates.every((f) => f.retried === 1)).toBe(true);

    const view = await call("GET", `/v1/runs/${run.run_id}`, { token: t.admin });
    const byId = (id: string) => view.json.gates.find((g: { gate_id: string }) => g.gate_id === id);
    expect(byId(hard.json.gate_id)).toMatchObject({
      status: "denied",
      outcome: "fallback_denied",
      channel: "outage_fallback",
      decided_by: OUTAGE_APPROVER,
    });
    expect(byId(soft.json.gate_id)).toMatchObject({ status: "pending" });
    const untouched = await call("GET", `/v1/runs/${otherRun.run_id}/gates/${bystander.json.gate_id}`, {
      token: other.admin,
    });
    expect(untouched.json.status).toBe("pending");
  });
});

describe("POST /v1/slack/outage/override", () => {
  const admin = (team: string, sub: string) => token(team, ["policy:admin"], { sub });
  const override = async (tok: string, body: unknown) =>
    call("POST", "/v1/slack/outage/override", { token: tok, body });

  it("needs two different admins; once confirmed, hard gates wait for a human again until the override expires", async () => {
    const TEAM = "outage-override";
    const t = await teamTokens(TEAM);
    const run = await startRun(t.worker);
    const since = Date.now();
    // the run on the API's clock, which sets the override's expiry (startRun pins it a day ahead)
    await setClock(run.run_id, since);
    await startOutage(TEAM, since);
    const ann = await admin(TEAM, "ann");

    const first = await override(ann, { reason: "INC-42: approving through the CLI", ttl_minutes: 1 });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ status: "pending", requested_by: "ann", confirmed_by: null, expires_at: null });
    const again = await override(ann, { reason: "me again" });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("conflict");
    expect(again.json.error.message).toContain("second, different admin");

    // still pending: the fallback is on
    const before = await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-before" });
    expect(before.json.outcome).toBe("fallback_denied");

    const second = await override(await admin(TEAM, "ben"), { reason: "agreed" });
    expect(second.status, second.text).toBe(200);
    expect(second.json).toMatchObject({ status: "active", requested_by: "ann", confirmed_by: "ben" });
    expect(second.json.expires_at).toBeGreaterThan(second.json.requested_at);
    expect(await outageAudit(TEAM)).toEqual([
      { actor: "ann", action: "slack.outage.override_requested" },
      { actor: "ben", action: "slack.outage.override_confirmed" },
    ]);

    // the run's gate-rule cache (outage included) reloads after its 1 s TTL: these clocks are past it
    const expires = second.json.expires_at as number;
    await setClock(run.run_id, expires - 10_000);
    const during = await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-during" });
    expect(during.json).toMatchObject({ kind: "hard", status: "pending" });

    await setClock(run.run_id, expires + 1);
    const after = await openGate(t.worker, run.run_id, { policy_key: "wrong_value", op_id: "op-after" });
    expect(after.json).toMatchObject({ status: "denied", outcome: "fallback_denied" });
  });

  it("refuses without an outage, a body without a reason, and a caller without policy:admin", async () => {
    const TEAM = "outage-refusals";
    const none = await override(await admin(TEAM, "ann"), { reason: "nothing is down" });
    expect(none.status).toBe(409);
    expect(none.json.error.message).toContain("no approval outage");
    await startOutage(TEAM, Date.now());
    const bad = await override(await admin(TEAM, "ann"), { ttl_minutes: 0 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("validation_failed");
    const paths = bad.json.error.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["reason", "ttl_minutes"]));
    const worker = await token(TEAM, ["runs:write"], { sub: "w" });
    expect((await override(worker, { reason: "x" })).status).toBe(403);
    expect(await outageAudit(TEAM)).toEqual([]);
    expect((await health().outage(TEAM))?.override).toBeNull();
  });
});

describe("response_url limit", () => {
  it("answers a response_url at most 5 times in 30 minutes, then updates the message with chat.update instead", async () => {
    const TEAM = "outage-respond";
    await installSlack(TEAM, "T0RESPOND");
    const slack = outageSlack();
    await slack.reset();
    let now = 1_000_000;
    const deps = depsWith({ slackApi: createSlackWebApi(slack.url), clock: { now: () => now } });
    const url = new URL("../respond/T0RESPOND/1/abc", slack.url).toString();
    const respond = (text: string, responseUrl = url): SlackOutboxMessage => ({
      kind: "respond",
      team_id: TEAM,
      response_url: responseUrl,
      text,
      message: { channel: CHANNELS.approvals, ts: "1700000000.000100" },
    });
    for (let i = 1; i <= 6; i++) {
      const b = batchOf([respond(`answer ${i}`)]);
      await consumeSlackOutbox(b.batch, deps);
      expect(b.fates[0]).toMatchObject({ acked: 1, retried: 0 });
    }
    const seen = await slack.requests();
    expect(seen.map((r) => r.path)).toEqual([...Array(5).fill("/respond/T0RESPOND/1/abc"), "/api/chat.update"]);
    expect(seen[5]?.body).toMatchObject({ channel: CHANNELS.approvals, ts: "1700000000.000100", text: "answer 6" });

    // another url: its 2nd use 30 minutes after its 1st goes to chat.update too (Slack no longer takes it)
    await slack.reset();
    const other = (text: string) => respond(text, `${url}-2`);
    await consumeSlackOutbox(batchOf([other("first")]).batch, deps);
    now += 30 * 60_000;
    await consumeSlackOutbox(batchOf([other("late")]).batch, deps);
    expect((await slack.requests()).map((r) => r.path)).toEqual(["/respond/T0RESPOND/1/abc-2", "/api/chat.update"]);
  });
});
