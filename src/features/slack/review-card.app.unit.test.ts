// The dead-letter review card in Node, over the D1, run objects' and artifacts bucket's stand-ins: the SchemaGuard
// reason, input → output of the failing fields, Open Artifacts and View Trace buttons whose signed links open, and the
// note modal's corrected input (checked at once). Audit rows read through the audit table (test/node-d1/table-rows.ts).
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { tableRows } from "../../../test/node-d1/table-rows";
import { interactionBody, noteSubmission, WORKSPACE } from "../../../test/slack-bodies";
import { sha256Hex } from "../../lib/digest";
import { auditLog } from "../audit/store/tables";
import { enqueueGateCards } from "./cards";
import type { SlackOutboxMessage } from "./store/slack-store-port";

const h = await nodeSlackHelpers();
const { addOrder, call, complete, depsWith, eventLog, installSlack, lease, recordingApp, runState, send } = h;
const { signedRequest, startRun, token } = h;
const recordRows = tableRows(h);

const TEAM = "team-review";
const LOG = "line 1: 40.00\nline 2: 80.00\ntotal printed: 210.00\n";

/** A wrong_value dead letter whose completion cited a log artifact; its review's gate.opened event. */
async function reviewOpened() {
  const worker = await token(TEAM, ["runs:write", "runs:read"], { sub: "worker" });
  const run = await startRun(worker);
  await addOrder(worker, run.run_id, "o1", { input_json: { invoice: "INV-7", total: 120, currency: "EUR" } });
  const l = await lease(worker, run.run_id, "o1");
  const bound = await token(TEAM, ["runs:write", "runs:read"], { sub: "worker", runId: run.run_id });
  const up = await send(
    new Request(`https://warden.test/v1/runs/${run.run_id}/artifacts`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${bound}`,
        "content-type": "text/plain",
        "x-artifact-kind": "log",
        "x-sha256": await sha256Hex(LOG),
      },
      body: LOG,
    }),
  );
  expect(up.status, up.text).toBe(201);
  const done = await complete(worker, run.run_id, "o1", {
    lease_id: l.json.lease_id,
    epoch: l.json.epoch,
    op_id: "op-wv",
    outcome: "DECLINE",
    failure_class: "wrong_value",
    output: { total: 210, currency: "EUR", schema_guard: "total does not match the line items" },
    artifacts: [up.json.artifact_id],
  });
  expect(done.status, done.text).toBe(200);
  const event = (await eventLog(run.run_id)).find((e) => e.type === "gate.opened");
  expect(event?.policy_key).toBe("dead_letter_review");
  return { runId: run.run_id, gateId: done.json.gate_id as string, artifactId: up.json.artifact_id as string, event };
}

async function reviewCard(event: unknown) {
  const sent: SlackOutboxMessage[][] = [];
  const deps = depsWith({ slackOutbox: { send: async (m) => void sent.push(m) } });
  await enqueueGateCards([event as never], deps);
  expect(sent).toHaveLength(1);
  return sent[0]?.[0] as SlackOutboxMessage & { blocks: any[] };
}

const buttons = (card: { blocks: any[] }) =>
  card.blocks.find((b) => b.type === "actions")?.elements as { action_id: string; url?: string; value?: string }[];

/** Opens a link as a browser would: no bearer token, only the link's own `?view=`. */
async function open(link: string) {
  const url = new URL(link);
  return call("GET", `${url.pathname}${url.search}`);
}

describe("dead-letter review card", () => {
  it("shows the reason and the failing fields, and Open Artifacts / View Trace buttons whose signed links open", async () => {
    await installSlack(TEAM);
    const { runId, artifactId, event } = await reviewOpened();
    const card = await reviewCard(event);
    const text = JSON.stringify(card.blocks);
    expect(text).toContain("*SchemaGuard* total does not match the line items");
    expect(text).toContain("• total: 120 → 210");
    expect(text).toContain("• currency: EUR → EUR");
    expect(text).toContain("*Artifacts* 1");
    const links = buttons(card);
    expect(links.map((b) => b.action_id)).toEqual([
      "gate_approve",
      "gate_skip",
      "gate_abort",
      "gate_deny",
      "gate_ack",
      "open_artifacts",
      "view_trace",
    ]);
    const artifactLink = links.find((b) => b.action_id === "open_artifacts")?.url as string;
    expect(artifactLink).toContain(`/artifacts/${artifactId}?view=`);
    const artifact = await open(artifactLink);
    expect([artifact.status, artifact.text]).toEqual([200, LOG]);
    const trace = await open(links.find((b) => b.action_id === "view_trace")?.url as string);
    expect(trace.status).toBe(200);
    expect(trace.text).toContain(runId);
    // a tampered link opens nothing
    const tampered = await open(artifactLink.replace(/view=(.)/, (_m, c) => `view=${c === "a" ? "b" : "a"}`));
    expect(tampered.status).toBe(401);
    expect(tampered.text).not.toContain("total printed");
    // the buttons carry the digest the approver saw
    expect(JSON.parse(links[0]?.value ?? "{}").digest).toBe(event.digest);
  });

  it("the note modal's corrected input: bad JSON, a non-object or a secret is told at once; a good one is applied once", async () => {
    await installSlack(TEAM);
    const { runId, gateId, event } = await reviewOpened();
    const card = await reviewCard(event);
    const approve = buttons(card)[0] as { value: string };
    const app = recordingApp();
    const click = {
      type: "block_actions",
      team: { id: WORKSPACE },
      user: { id: "U0ALICE" },
      trigger_id: "trig-review",
      actions: [{ action_id: "gate_approve", value: approve.value, action_ts: "1700000000.000200" }],
    };
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(click)));
    const view = app.apiCalls.find((c) => c.method === "views.open")?.body.view;
    expect(view.blocks.map((b: { block_id?: string }) => b.block_id)).toContain("patch");
    const submit = async (patch: string) =>
      app.fetch(
        await signedRequest(
          "/slack/interactions",
          interactionBody(
            noteSubmission("U0ALICE", view.private_metadata, {
              note: { note: { value: "line items re-added" } },
              patch: { patch: { value: patch } },
            }),
          ),
        ),
      );
    for (const [bad, told] of [
      ["{total: 210", /Not valid JSON/],
      ["[1, 2]", /must be a JSON object/],
      ['{"note": "key sk_live_4eC39HqLyjWDarjtT1zdp7dc"}', /secret or personal data/],
      [`{"blob": "${"x".repeat(70 * 1024)}"}`, /must be a JSON object \(a merge patch\) of at most 64 KiB/],
    ] as const) {
      const r = await submit(bad);
      expect(r.json).toMatchObject({ response_action: "errors", errors: { patch: expect.stringMatching(told) } });
    }
    expect((await runState(runId)).gates[gateId]?.status).toBe("pending");

    const ok = await submit('{"total": 210, "currency": null}');
    expect(ok.json).toEqual({ response_action: "clear" });
    const state = await runState(runId);
    expect(state.gates[gateId]?.status).toBe("approved");
    expect(state.orders.o1?.body.input_json).toEqual({ invoice: "INV-7", total: 210 });
    expect(state.orders.o1?.reviewed_by).toBe("alice");
    // the same modal submitted again (Slack retries, a double click) is the same decision: nothing applied twice
    await submit('{"total": 999}');
    expect((await runState(runId)).orders.o1?.body.input_json).toEqual({ invoice: "INV-7", total: 210 });
    const audit = await recordRows(
      auditLog,
      and(eq(auditLog.action, "dead_letter.input_patched"), eq(auditLog.teamId, TEAM)),
      { metadata: auditLog.metadata },
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.metadata ?? {}).toMatchObject({ digest: event.digest, patch: { total: 210 } });
  });

  it("Skip from the review card: its modal has no corrected-input field, the order is skipped unchanged", async () => {
    await installSlack(TEAM);
    const { runId, gateId, event } = await reviewOpened();
    const card = await reviewCard(event);
    const app = recordingApp();
    const click = (actionId: string, ts: string) => ({
      type: "block_actions",
      team: { id: WORKSPACE },
      user: { id: "U0BOB" },
      trigger_id: `trig-${ts}`,
      actions: [{ action_id: actionId, value: buttons(card)[0]?.value, action_ts: ts }],
    });
    await app.fetch(await signedRequest("/slack/interactions", interactionBody(click("gate_skip", "1.1"))));
    const skipView = app.apiCalls.find((c) => c.method === "views.open")?.body.view;
    expect(skipView.blocks.map((b: { block_id?: string }) => b.block_id)).not.toContain("patch");
    const r = await app.fetch(
      await signedRequest(
        "/slack/interactions",
        interactionBody(
          noteSubmission("U0BOB", skipView.private_metadata, { note: { note: { value: "duplicate invoice" } } }),
        ),
      ),
    );
    expect(r.json).toEqual({ response_action: "clear" });
    const state = await runState(runId);
    expect(state.gates[gateId]?.status).toBe("skipped");
    expect(state.orders.o1?.status).toBe("SKIPPED");
    expect(state.orders.o1?.body.input_json).toEqual({ invoice: "INV-7", total: 120, currency: "EUR" });
  });
});
