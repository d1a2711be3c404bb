// `/warden new … template= noise=` starts the Health DAG as a declared graph; `/warden status` shows its progress
// (in Node, over the D1 and Durable Object stand-ins).
import { describe, expect, it } from "vitest";
import { nodeSlackHelpers } from "../../../test/node-d1/slack";
import { commandBody } from "../../../test/slack-bodies";

const TEAM = "team-a";
const { call, deps, token, installSlack, slackCall } = await nodeSlackHelpers();
/** the agent runs of the file's one team, through the run index store (the file's runs are all TEAM's) */
const agentRuns = async () =>
  (await deps.runIndex.listRuns(TEAM, { kind: "agent", limit: 1000 })).map(({ run_id }) => ({ run_id }));
const started = async (text: string) => {
  const res = await slackCall("/slack/commands", commandBody(text));
  expect(res.status).toBe(200);
  return { text: res.json.text as string, runId: /`(run_[0-9a-f]+)`/.exec(res.json.text)?.[1] };
};
const runView = async (runId: string) =>
  (await call("GET", `/v1/runs/${runId}`, { token: await token(TEAM, ["runs:read"]) })).json;

describe("slash command new with a template or noise", () => {
  it("declares the Health DAG for one document of that kind and noise: extract (extractor) → persist (cpu)", async () => {
    await installSlack(TEAM);
    const r = await started('new "check an invoice" template=invoice noise=high');
    expect(r.text).toContain("The Health DAG for one invoice document at high noise: 2 items (extract → persist)");
    const view = await runView(r.runId as string);
    expect(view.template).toBe("invoice");
    expect(view.items.map((i: Record<string, unknown>) => [i.item_id, i.state, i.persona_id, i.depends_on])).toEqual([
      ["extract-invoice-high", "ready", "extractor", []],
      ["persist-invoice-high", "waiting", "cpu", ["extract-invoice-high"]],
    ]);
  });

  it("defaults the kind to invoice and the noise to med; refuses an unknown noise; without either, no graph", async () => {
    await installSlack(TEAM);
    const noiseOnly = await started('new "noisy one" noise=low');
    expect((await runView(noiseOnly.runId as string)).items.map((i: { item_id: string }) => i.item_id)).toEqual([
      "extract-invoice-low",
      "persist-invoice-low",
    ]);
    const ticket = await started('new "a ticket" template=ticket');
    expect((await runView(ticket.runId as string)).items[0].item_id).toBe("extract-ticket-med");
    const loud = await started('new "x" noise=loud');
    expect(loud.text).toMatch(/^noise is one of low, med, high/);
    expect(loud.runId).toBeUndefined();
    const plain = await started('new "no graph here"');
    expect((await runView(plain.runId as string)).items).toEqual([]);
  });

  it("starts nothing under backpressure: the board's max_ready is reached", async () => {
    await installSlack(TEAM);
    const admin = await token(TEAM, ["policy:admin"]);
    const set = await call("PUT", "/v1/board/settings", { token: admin, body: { max_ready: 1 } });
    expect(set.status, set.text).toBe(200);
    try {
      await started('new "fills the board" template=status');
      const before = await agentRuns();
      const refused = await started('new "one too many" template=status');
      expect(refused.text).toMatch(/^Not started: .*max_ready/);
      expect(await agentRuns()).toEqual(before);
    } finally {
      await call("PUT", "/v1/board/settings", { token: admin, body: { max_ready: null } });
    }
  });
});

describe("slash command status on a graph run", () => {
  it("shows items passed of total, then the failing item and the chain skipped behind it", async () => {
    await installSlack(TEAM);
    const r = await started('new "a euro invoice" template=invoice noise=med');
    const runId = r.runId as string;
    const before = await slackCall("/slack/commands", commandBody(`status ${runId}`));
    expect(before.json.text).toContain("*Graph* 0/2 items passed · 1 ready · 1 waiting");
    // bound to this run: earlier tests of the file left ready extractor items on the team's board
    const worker = await token(TEAM, ["runs:write", "runs:read"], { sub: "extractor-worker", runId });
    const lease = await call("POST", "/v1/orders/lease-next", {
      token: worker,
      body: { worker_id: "w1", persona_id: "extractor" },
    });
    expect(lease.status, lease.text).toBe(200);
    expect(lease.json.order_id).toBe("extract-invoice-med");
    const done = await call("POST", `/v1/runs/${runId}/orders/extract-invoice-med/complete`, {
      token: worker,
      body: {
        lease_id: lease.json.lease_id,
        epoch: lease.json.epoch,
        op_id: "op-wrong",
        outcome: "DECLINE",
        failure_class: "wrong_value",
      },
    });
    expect(done.json.next).toBe("dead_letter");
    const after = await slackCall("/slack/commands", commandBody(`status ${runId}`));
    expect(after.json.text).toContain(
      "*Graph* 0/2 items passed · 1 dead_letter · 1 skipped — failing: extract-invoice-med (skipped: persist-invoice-med)",
    );
    expect(after.json.text).toContain("DEAD_LETTER");
  });
});
