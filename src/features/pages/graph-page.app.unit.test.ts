// The work graph on the pages: the trace page's SVG (boxes by state, the failing chain) and the overview's personas,
// in Node (D1, run and board object stand-ins).
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { workItem } from "../../../test/work-item";

const { call, fetch, token } = await nodeHelpers();

const page = async (tok: string, body: unknown) => {
  const v = await call("POST", "/v1/views", { token: tok, body });
  expect(v.status, v.text).toBe(201);
  const res = await fetch(new Request((v.json.url as string).replace(/^https?:\/\/[^/]+/, "https://warden.test")));
  expect(res.status).toBe(200);
  return res.text;
};
/** `<g data-item="id" data-state="…" …>` of the graph SVG, in document order */
const drawn = (html: string) =>
  [...html.matchAll(/<g data-item="([^"]+)" data-state="([^"]+)"( data-failing="true")?/g)].map((m) => ({
    id: m[1],
    state: m[2],
    failing: m[3] !== undefined,
  }));

describe("the trace page's work graph", () => {
  it("draws every item as a box with its state, every edge, and the failing chain in red", async () => {
    const tok = await token("pg-graph", undefined, { sub: "pg-worker" });
    const created = await call("POST", "/v1/runs", {
      token: tok,
      body: {
        goal: "graph on the page",
        items: [workItem("a"), workItem("b", ["a"]), workItem("c", ["b"]), workItem("d", ["a"]), workItem("e")],
      },
    });
    expect(created.status, created.text).toBe(201);
    const runId = created.json.run_id as string;
    // a passes; b dead-letters (wrong_value), so c is skipped behind it; d is released, e stays ready
    for (const [order, outcome] of [
      ["a", "PASS"],
      ["b", "DECLINE"],
    ] as const) {
      // a token bound to the item: lease-next answers it alone (204 until the board has it leasable)
      const bound = await token("pg-graph", undefined, { sub: "pg-worker", runId, taskId: order });
      let l = await call("POST", "/v1/orders/lease-next", { token: bound, body: { worker_id: "w" } });
      for (let i = 0; l.status === 204 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 20));
        l = await call("POST", "/v1/orders/lease-next", { token: bound, body: { worker_id: "w" } });
      }
      expect(l.json.order_id).toBe(order);
      const done = await call("POST", `/v1/runs/${runId}/orders/${order}/complete`, {
        token: bound,
        body: {
          lease_id: l.json.lease_id,
          epoch: l.json.epoch,
          op_id: `op-${order}`,
          outcome,
          ...(outcome === "DECLINE" ? { failure_class: "wrong_value" } : {}),
        },
      });
      expect(done.status, done.text).toBe(200);
    }
    const html = await page(tok, { kind: "run", run_id: runId });
    expect(html).toContain('data-chart="graph" data-items="5"');
    expect(drawn(html)).toEqual([
      { id: "a", state: "passed", failing: false },
      { id: "b", state: "dead_letter", failing: true },
      { id: "c", state: "skipped", failing: true },
      { id: "d", state: "ready", failing: false },
      { id: "e", state: "ready", failing: false },
    ]);
    const edges = [...html.matchAll(/<path d="[^"]+" stroke="([^"]+)"[^>]*data-edge="([^"]+)"/g)].map((m) => [
      m[2]?.replace("&gt;", ">"),
      m[1],
    ]);
    expect(edges).toEqual([
      ["a>b", "currentColor"],
      ["b>c", "#cf222e"],
      ["a>d", "currentColor"],
    ]);
    expect(html).toContain("1/5 items passed · 2 ready · 1 dead_letter · 1 skipped — failing: b (skipped: c)");
  });

  it("shows no graph section for a run without items", async () => {
    const tok = await token("pg-plain");
    const created = await call("POST", "/v1/runs", { token: tok, body: { goal: "plain run" } });
    const html = await page(tok, { kind: "run", run_id: created.json.run_id });
    expect(html).not.toContain('data-chart="graph"');
    expect(html).not.toContain("<h2>Graph</h2>");
  });
});

describe("the team overview's board section", () => {
  it("lists each persona with its cap, leases held, ready and waiting items and the oldest wait", async () => {
    const tok = await token("pg-board", undefined, { sub: "pg-admin" });
    const put = await call("PUT", "/v1/personas/extractor", {
      token: tok,
      body: { name: "Extractor", role: "extract", concurrency_limit: 2, enabled: false },
    });
    expect(put.status, put.text).toBe(200);
    const created = await call("POST", "/v1/runs", {
      token: tok,
      body: {
        goal: "persona rows",
        items: [
          workItem("x1", [], { persona_id: "extractor" }),
          workItem("x2", ["x1"], { persona_id: "extractor" }),
          workItem("y", [], { persona_id: "cpu" }),
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const html = await page(tok, { kind: "team" });
    const row = (id: string) => {
      const m = new RegExp(`<tr data-persona="${id}"[^>]*>([\\s\\S]*?)</tr>`).exec(html);
      const cells = Object.fromEntries(
        [...(m?.[1] ?? "").matchAll(/data-field="([\w-]+)">([^<]*)</g)].map((c) => [c[1], c[2]]),
      );
      return { cells, disabled: (m?.[1] ?? "").includes("disabled") };
    };
    expect(row("extractor")).toEqual({
      cells: { cap: "2", leased: "0", ready: "1", waiting: "1", "oldest-wait": expect.stringMatching(/^\d+s$/) },
      disabled: true,
    });
    // named by an item only: the seed's persona mutex (limit 1), enabled
    expect(row("cpu")).toEqual({
      cells: { cap: "1", leased: "0", ready: "1", waiting: "0", "oldest-wait": expect.stringMatching(/^\d+s$/) },
      disabled: false,
    });
    expect(html).toContain('<a href="#board-section">board (2 personas)</a>');
  });
});
