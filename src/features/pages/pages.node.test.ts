// The pages in a real browser: Chromium (playwright-core) against `npm start`, a scripted run, its trace and overview.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDevVars } from "../../../scripts/dev-vars.mjs";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../../../test/node-server/local-server.ts";
import { mintToken } from "../../auth/mint";
import type { Scope } from "../../auth/tokens";
import { mintViewToken } from "../../auth/view-token";

const root = join(import.meta.dirname, "../../..");
const shots = join(root, "test-results");
const GOAL = "<script>window.__pwned=1</script> Health: Extract & Verify";

/** the text as rendered (Playwright's innerText, not the DOM property) */
// biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, the rendered text
const text = (l: Locator) => l.innerText();

function chromiumPath(): string | null {
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

describe("pages in Chromium", () => {
  let browser: Browser;
  // the node-server project's shared `npm start` (its teams bt-a and bt-b are this file's alone)
  const base = sharedServerUrl();
  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);
  let secret: string;
  const scopes: Scope[] = ["runs:read", "runs:write", "approvals:decide"];
  const tokenFor = (team: string, sub: string) => mintToken({ secret, teamId: team, scopes, sub });

  async function api(tok: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${tok}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  const order = (id: string, extra: Record<string, unknown> = {}) => ({
    order_id: id,
    task_id: `task-${id}`,
    goal: `work on ${id}`,
    input_json: { doc: id },
    output_schema_id: "extractor.v1",
    timeout_sec: 30,
    cost_budget_tokens: 1000,
    ...extra,
  });

  /** A run as remote agents drive it: a schema_invalid gate another subject approves, a pass, a wrong_value dead letter. */
  async function scriptedRun(worker: string, approver: string) {
    const run = await api(worker, "POST", "/v1/runs", { goal: GOAL, skills: ["extract"] });
    const runId = run.run_id as string;
    await api(worker, "POST", `/v1/runs/${runId}/orders`, order("o1", { skill: "extract" }));
    const l1 = await api(worker, "POST", `/v1/runs/${runId}/orders/o1/lease`, { worker_id: "extractor-1" });
    const c1 = await api(worker, "POST", `/v1/runs/${runId}/orders/o1/complete`, {
      lease_id: l1.lease_id,
      epoch: l1.epoch,
      op_id: "op-1",
      outcome: "DECLINE",
      failure_class: "schema_invalid",
      tokens_in: 610,
      tokens_out: 120,
    });
    expect(c1.next).toBe("gate");
    await api(
      approver,
      "POST",
      "/v1/approvals",
      {
        run_id: runId,
        op_id: "op-1",
        policy_key: "schema_invalid",
        decision: "approve_retry",
        note: "stricter prompt, <i>once</i>",
      },
      { "X-Warden-Channel": "cli" },
    );
    const l2 = await api(worker, "POST", `/v1/runs/${runId}/orders/o1/lease`, { worker_id: "extractor-1" });
    await api(worker, "POST", `/v1/runs/${runId}/orders/o1/complete`, {
      lease_id: l2.lease_id,
      epoch: l2.epoch,
      op_id: "op-2",
      outcome: "PASS",
      tokens_in: 300,
      tokens_out: 50,
      output: { extracted_fields: { total: 12.5 }, used_mem_ids: ["team/bt-a/org/sop/extract.v1"] },
    });
    await api(worker, "POST", `/v1/runs/${runId}/orders`, order("o2", { skill: "verify" }));
    const l3 = await api(worker, "POST", `/v1/runs/${runId}/orders/o2/lease`, { worker_id: "verifier-1" });
    const c3 = await api(worker, "POST", `/v1/runs/${runId}/orders/o2/complete`, {
      lease_id: l3.lease_id,
      epoch: l3.epoch,
      op_id: "op-3",
      outcome: "DECLINE",
      failure_class: "wrong_value",
      tokens_in: 200,
      tokens_out: 40,
    });
    expect(c3.next).toBe("dead_letter");
    return runId;
  }

  /**
   * One page per kind (JavaScript on or off, desktop or phone), made once and taken to each URL of that kind: a new
   * browser context per URL cost a renderer's start each time. Closing takes the page to about:blank (a page that
   * refreshes itself never navigates under the next test), and every URL still loads as a fresh document.
   */
  const pages = new Map<string, Page>();
  async function open(url: string, name: string, opts: { js?: boolean; mobile?: boolean } = {}) {
    const kind = `${opts.js ?? true}/${opts.mobile ?? false}`;
    let page = pages.get(kind);
    if (!page) {
      const context = await browser.newContext({
        javaScriptEnabled: opts.js ?? true,
        viewport: opts.mobile ? { width: 390, height: 844 } : { width: 1200, height: 900 },
      });
      page = await context.newPage();
      pages.set(kind, page);
    }
    const res = await page.goto(url);
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    const opened = page;
    return { page: opened, status: res?.status() ?? 0, close: async () => void (await opened.goto("about:blank")) };
  }

  beforeAll(async () => {
    const executablePath = chromiumPath();
    if (!executablePath) throw new Error("chromium is not installed (apt-get install chromium; .ci/run installs it)");
    mkdirSync(shots, { recursive: true });
    browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
    // the server's secret: its `npm start` created .dev.vars if it was missing
    secret = readDevVars(join(root, ".dev.vars")).WARDEN_JWT_SECRET as string;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("renders a scripted run's trace and the team overview; injected script never runs; bad links get 401", async () => {
    const worker = await tokenFor("bt-a", "worker-bt-a");
    const approver = await tokenFor("bt-a", "approver-bt-a");
    const runId = await scriptedRun(worker, approver);
    // a second, live run holding a hard gate nobody decided yet (the overview's open gates)
    const live = (await api(worker, "POST", "/v1/runs", { goal: "waiting on a human" })).run_id as string;
    await api(worker, "POST", `/v1/runs/${live}/gates`, { policy_key: "pii_detected", op_id: "op-pii" });

    // ---- the trace, with JavaScript on (the injected script must not run) and off (the page still reads)
    const trace = await api(worker, "POST", "/v1/views", { kind: "run", run_id: runId });
    expect(trace.url).toBe(`${base}/runs/${runId}/trace?view=${trace.url.split("view=")[1]}`);
    const t = await open(trace.url, "trace");
    expect(t.status).toBe(200);
    expect(await t.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await text(t.page.locator("h1"))).toBe(GOAL);
    expect(await text(t.page.locator("[data-field=status]"))).toBe("DEAD_LETTER");
    expect(await text(t.page.locator("[data-field=team]"))).toBe("bt-a");
    const steps = t.page.locator("#steps tbody tr");
    expect(await steps.count()).toBe(3);
    // the agent is the lease holder's subject
    expect(await text(steps.nth(0))).toMatch(/worker-bt-a.*o1.*DECLINE.*schema_invalid.*gate.*\d+ ms.*610 \/ 120/s);
    expect(await text(steps.nth(1))).toMatch(/worker-bt-a.*PASS.*complete.*300 \/ 50/s);
    expect(await text(steps.nth(2))).toMatch(/worker-bt-a.*o2.*wrong_value.*dead_letter.*200 \/ 40/s);
    expect(await t.page.locator("[data-field=rule_id]").count()).toBeGreaterThan(0);
    // the human decision as a step of its own: opened by whom and why, decided by whom through which channel, the
    // note, how long it waited, the gate-rule version, its outcome, and an anchor a Slack card links to
    const gate = t.page.locator("#gates li").first();
    const gateId = (await gate.getAttribute("data-gate")) as string;
    expect(await gate.getAttribute("id")).toBe(`gate-${gateId}`);
    expect(await gate.getAttribute("data-outcome")).toBe("approved");
    expect(await text(gate)).toContain("approved");
    expect(await text(gate.locator("[data-field=opened]"))).toMatch(/opened by worker-bt-a .*gate rules v0/s);
    // the schema_invalid gate came from the policy's decision on the failed attempt: the profile version that made it
    expect(await text(gate.locator("[data-field=profile_version]"))).toContain("MemRL profile v0");
    expect(await text(gate.locator("[data-field=decided_by]"))).toContain("approver-bt-a");
    expect(await text(gate.locator("[data-field=decided]"))).toMatch(
      /approve_retry by approver-bt-a via cli .* waited \d+s/s,
    );
    expect(await text(gate.locator("[data-field=note]"))).toBe("stricter prompt, <i>once</i>");
    // the step that opened the gate links to it
    expect(await t.page.locator(`#steps a[href="#gate-${gateId}"]`).count()).toBe(1);
    // lease lanes: o1 held twice by the worker (the first lease completed, then the re-prompt's)
    expect(await t.page.locator('#lanes tr[data-order="o1"] .lease').count()).toBe(2);
    expect(await text(t.page.locator('#lanes tr[data-order="o1"]'))).toMatch(/worker-bt-a · e1 .*completed.*e2/s);
    await t.page.locator(`#gate-${gateId}`).screenshot({ path: join(shots, "trace-human-decision.png") });
    expect(await text(t.page.locator("#used-mem-ids"))).toContain("team/bt-a/org/sop/extract.v1");
    expect(await text(t.page.locator("#dead-letters"))).toMatch(/wrong_value[\s\S]*reissue/);
    expect(await t.page.locator("svg[data-chart=steps] rect").count()).toBe(3);
    expect(await t.page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    await t.close();
    const noJs = await open(trace.url, "trace-no-js-mobile", { js: false, mobile: true });
    expect(await text(noJs.page.locator("h1"))).toBe(GOAL);
    expect(await noJs.page.locator("#steps tbody tr").count()).toBe(3);
    // no horizontal overflow of the page itself on a phone (wide tables scroll inside their box)
    expect(await noJs.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await noJs.close();

    const liveTrace = await api(worker, "POST", "/v1/views", { kind: "run", run_id: live });
    const lt = await open(liveTrace.url, "trace-live");
    expect(await lt.page.locator('meta[http-equiv="refresh"]').count()).toBe(1);
    await lt.close();

    // ---- the overview (open gates arrive through the events queue: poll its HTML briefly, then open it once)
    const overview = await api(worker, "POST", "/v1/views", { kind: "team" });
    expect(overview.url).toMatch(new RegExp(`^${base}/teams/bt-a/overview\\?view=`));
    for (let i = 0; i < 200 && !(await (await fetch(overview.url)).text()).includes("<tr data-gate="); i++)
      await new Promise((r) => setTimeout(r, 100));
    const o = await open(overview.url, "overview");
    expect(o.status).toBe(200);
    expect(await o.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await text(o.page.locator(`#runs tr[data-run="${runId}"] [data-field=goal]`))).toBe(GOAL);
    expect(await o.page.locator(`#runs tr[data-run="${live}"]`).count()).toBe(1);
    expect(await text(o.page.locator("#open-gates"))).toContain("pii_detected");
    expect(await text(o.page.locator("#dead-letters"))).toContain("wrong_value");
    expect(await text(o.page.locator("#spend"))).toMatch(/task-o1[\s\S]*910[\s\S]*170/);
    expect(await o.page.locator("svg[data-chart=sparkline]").count()).toBe(3);
    expect(await text(o.page.locator("[data-field=mode]"))).toBe("enforce");
    await o.close();
    const phone = await open(overview.url, "overview-mobile", { mobile: true });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.close();

    // ---- wrong, expired and foreign links: a plain 401 page, no data
    const other = await tokenFor("bt-b", "worker-bt-b");
    const foreignRun = (await api(other, "POST", "/v1/runs", { goal: "team b's run" })).run_id as string;
    const foreignRunUrl = (await api(other, "POST", "/v1/views", { kind: "run", run_id: foreignRun })).url as string;
    const foreignTeamUrl = (await api(other, "POST", "/v1/views", { kind: "team" })).url as string;
    const expired = (
      await mintViewToken(secret, { kind: "run", team_id: "bt-a", run_id: runId }, Date.now() - 16 * 60_000)
    ).token;
    const view = (url: string) => url.split("view=")[1] as string;
    const bad: [string, string][] = [
      ["401-tampered", `${base}/runs/${runId}/trace?view=${view(trace.url).slice(0, -3)}AAA`],
      ["401-expired", `${base}/runs/${runId}/trace?view=${expired}`],
      ["401-foreign-run", `${base}/runs/${runId}/trace?view=${view(foreignRunUrl)}`],
      ["401-foreign-team", `${base}/teams/bt-a/overview?view=${view(foreignTeamUrl)}`],
      ["401-run-token-on-overview", `${base}/teams/bt-a/overview?view=${view(trace.url)}`],
      ["401-missing", `${base}/runs/${runId}/trace`],
    ];
    for (const [name, url] of bad) {
      const p = await open(url, name);
      expect(p.status, name).toBe(401);
      const body = await text(p.page.locator("body"));
      expect(body, name).toContain("not valid");
      expect(body, name).not.toContain("Health");
      await p.close();
    }
  });

  it("shows a reviewed step's artifact as a link that opens, and the corrected input the review applied (who, when, patch)", async () => {
    const team = "bt-review";
    const worker = await tokenFor(team, "worker-bt-review");
    const approver = await tokenFor(team, "approver-bt-review");
    const runId = (await api(worker, "POST", "/v1/runs", { goal: "review evidence" })).run_id as string;
    await api(worker, "POST", `/v1/runs/${runId}/orders`, order("o1", { input_json: { total: 120, currency: "EUR" } }));
    const l = await api(worker, "POST", `/v1/runs/${runId}/orders/o1/lease`, { worker_id: "extractor-1" });
    const log = "total printed: 210.00\n";
    const sha = createHash("sha256").update(log).digest("hex");
    const bound = await mintToken({ secret, teamId: team, scopes, sub: "worker-bt-review", runId });
    const up = await fetch(`${base}/v1/runs/${runId}/artifacts`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${bound}`,
        "content-type": "text/plain",
        "x-artifact-kind": "log",
        "x-sha256": sha,
      },
      body: log,
    });
    expect(up.status).toBe(201);
    const artifactId = ((await up.json()) as { artifact_id: string }).artifact_id;
    const done = await api(worker, "POST", `/v1/runs/${runId}/orders/o1/complete`, {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: "op-wv",
      outcome: "DECLINE",
      failure_class: "wrong_value",
      output: { total: 210, reason: "total does not match the lines" },
      artifacts: [artifactId],
    });
    const gate = await api(worker, "GET", `/v1/runs/${runId}/gates/${done.gate_id}`);
    await api(approver, "POST", `/v1/gates/${done.gate_id}/decision`, {
      decision: "approve_retry",
      note: "lines re-checked",
      digest: gate.digest,
      patch: { total: 210, currency: null },
    });
    const { token } = await mintViewToken(secret, { kind: "run", team_id: team, run_id: runId }, Date.now());
    const trace = await open(`${base}/runs/${runId}/trace?view=${token}`, "trace-review", { js: false });
    try {
      expect(trace.status).toBe(200);
      const patched = trace.page.locator(`#gate-${done.gate_id} [data-field="input_patch"]`);
      expect(await text(patched)).toMatch(
        /^input of o1 corrected by approver-bt-review at \d{4}-\d\d-\d\dT[\d:]+Z?.*: \{"total":210,"currency":null\}$/,
      );
      const link = trace.page.locator(`a[data-artifact="${artifactId}"]`).first();
      const href = (await link.getAttribute("href")) as string;
      const opened = await fetch(new URL(href, base));
      expect([opened.status, await opened.text()]).toEqual([200, log]);
    } finally {
      await trace.close();
    }
  });

  it("draws a declared graph on the trace page (one box per item, the failing chain marked) and the overview's personas", async () => {
    const worker = await tokenFor("bt-g", "worker-bt-g");
    const items = ["extract", "persist", "verify"].map((id, i, all) => ({
      item_id: id,
      goal: `${id} the record`,
      input_json: {},
      depends_on: i ? [all[i - 1]] : [],
      persona_id: i ? "cpu" : "extractor",
      output_schema_id: "out.v1",
      timeout_sec: 30,
    }));
    const runId = (await api(worker, "POST", "/v1/runs", { goal: "graph in Chromium", items })).run_id as string;
    const l = await api(worker, "POST", "/v1/orders/lease-next", { worker_id: "w-g", persona_id: "extractor" });
    expect(l.order_id).toBe("extract");
    await api(worker, "POST", `/v1/runs/${runId}/orders/extract/complete`, {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: "op-g",
      outcome: "DECLINE",
      failure_class: "wrong_value",
    });
    const trace = await api(worker, "POST", "/v1/views", { kind: "run", run_id: runId });
    const t = await open(trace.url, "trace-graph", { js: false });
    expect(t.status).toBe(200);
    const svg = t.page.locator("svg[data-chart=graph]");
    expect(await svg.isVisible()).toBe(true);
    expect(await svg.getAttribute("data-items")).toBe("3");
    expect(await svg.locator("g[data-item]").count()).toBe(3);
    expect(await svg.locator("g[data-failing=true]").count()).toBe(3);
    expect(await svg.locator("path[data-edge]").count()).toBe(2);
    expect(await text(t.page.locator("[data-field=graph-progress]"))).toBe(
      "0/3 items passed · 1 dead_letter · 2 skipped — failing: extract (skipped: persist, verify)",
    );
    await t.close();
    // the run has ended, so only registered personas are left on the board
    const admin = await mintToken({ secret, teamId: "bt-g", scopes: ["policy:admin"], sub: "admin-bt-g" });
    await api(admin, "PUT", "/v1/personas/extractor", { name: "Extractor", concurrency_limit: 3, enabled: true });
    const overview = await api(worker, "POST", "/v1/views", { kind: "team" });
    const o = await open(overview.url, "overview-board", { js: false });
    const rows = o.page.locator("#board tr[data-persona]");
    expect(await rows.count()).toBe(1);
    expect(await text(rows.locator("[data-field=cap]"))).toBe("3");
    await o.close();
  });
});
