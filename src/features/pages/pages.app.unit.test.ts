// The pages over HTTP in Node (D1 and run object stand-ins): POST /v1/views, the trace and overview pages, their
// 401/404 pages, escaping and headers.
import { describe, expect, it } from "vitest";
import { nodeHelpers } from "../../../test/node-d1/app";
import { attemptOp, deadLetterOp, legacyApprovalOp, recordSeeds, runOp } from "../../../test/record-seeds";
import { mintViewToken, verifyViewToken } from "../../auth/view-token";

const { addOrder, call, complete, drain, env, fetch, lease, leasedOrder, startRun, teamTokens, token } =
  await nodeHelpers();
const views = (tok: string | undefined, body: unknown) => call("POST", "/v1/views", { token: tok, body });
const get = async (url: string) => {
  const res = await fetch(new Request(url));
  return { status: res.status, headers: res.headers, text: res.text };
};
/** the origin of every link Warden hands out (wrangler.toml [vars]) */
const PUBLIC_URL = (env as unknown as { PUBLIC_URL: string }).PUBLIC_URL;
const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, "https://warden.test");

describe("POST /v1/views", () => {
  it("is in the OpenAPI document; the HTML pages are not", async () => {
    const doc = (await call("GET", "/openapi.json")).json;
    expect(doc.paths["/v1/views"].post.security).toEqual([{ bearerAuth: ["runs:read"] }]);
    expect(Object.keys(doc.paths).filter((p) => p.endsWith("/trace") || p.endsWith("/overview"))).toEqual([]);
  });

  it("mints a run trace URL on PUBLIC_URL, valid for at most 15 minutes", async () => {
    const t = await teamTokens("pv-a");
    const run = await startRun(t.worker, { goal: "extract invoices" });
    const before = Date.now();
    const res = await views(t.worker, { kind: "run", run_id: run.run_id });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(["expires_at", "url"]);
    expect(res.json.url).toMatch(new RegExp(`^${PUBLIC_URL}/runs/${run.run_id}/trace\\?view=[\\w-]+\\.[\\w-]+$`));
    // a Host header of the caller's choosing changes nothing (finding 22.6)
    const spoofed = await fetch(
      new Request("https://evil.example/v1/views", {
        method: "POST",
        headers: { authorization: `Bearer ${t.worker}`, "content-type": "application/json", host: "evil.example" },
        body: JSON.stringify({ kind: "run", run_id: run.run_id }),
      }),
    );
    expect((spoofed.json as { url: string }).url.startsWith(`${PUBLIC_URL}/runs/`)).toBe(true);
    const expires = Date.parse(res.json.expires_at);
    expect(expires).toBeGreaterThan(before);
    expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
  });

  it("mints the caller's team overview URL", async () => {
    const t = await teamTokens("pv-b");
    const res = await views(t.worker, { kind: "team" });
    expect(res.status).toBe(201);
    expect(res.json.url.startsWith(`${PUBLIC_URL}/teams/pv-b/overview?view=`)).toBe(true);
  });

  it("answers 404 for another team's run and for an unknown run", async () => {
    const a = await teamTokens("pv-c");
    const b = await teamTokens("pv-d");
    const run = await startRun(a.worker);
    expect((await views(b.worker, { kind: "run", run_id: run.run_id })).json.error.code).toBe("not_found");
    expect((await views(a.worker, { kind: "run", run_id: "run_nope" })).status).toBe(404);
  });

  it("refuses the team overview to a run-bound token (403)", async () => {
    const tok = await token("pv-e", ["runs:read"], { runId: "run_x" });
    const res = await views(tok, { kind: "team" });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
  });

  it.each([
    ["an unknown kind", { kind: "org" }],
    ["a run without run_id", { kind: "run" }],
    ["an empty run_id", { kind: "run", run_id: "" }],
    ["an overlong run_id", { kind: "run", run_id: "r".repeat(129) }],
    ["an extra field", { kind: "team", team_id: "someone-else" }],
    ["no body fields", {}],
  ])("refuses %s with 400 validation_failed", async (_name, body) => {
    const res = await views(await token("pv-f"), body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
  });

  it("refuses a missing token (401), a token without runs:read (403) and a non-JSON body (415)", async () => {
    expect((await views(undefined, { kind: "team" })).status).toBe(401);
    expect((await views(await token("pv-g", ["memory:read"]), { kind: "team" })).status).toBe(403);
    const res = await call("POST", "/v1/views", {
      token: await token("pv-g"),
      body: "kind=team",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
  });
});

describe("GET /runs/:run_id/trace", () => {
  it("renders the run: header, steps with tokens, the decision's rule id, the gate's approver and note, escaped text", async () => {
    const t = await teamTokens("pt-a");
    const goal = `<script>window.__pwned=1</script> & "quotes"`;
    const { runId, orderId, lease: l } = await leasedOrder(t.worker, "o1", { skill: "extract" }, { goal });
    const failed = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "op-1",
      outcome: "DECLINE",
      failure_class: "schema_invalid",
      tokens_in: 610,
      tokens_out: 120,
    });
    expect(failed.json.next).toBe("gate");
    const decided = await call("POST", "/v1/approvals", {
      token: t.approver,
      body: {
        run_id: runId,
        op_id: "op-1",
        policy_key: "schema_invalid",
        decision: "approve_retry",
        note: "<b>ok</b> retry",
      },
    });
    expect(decided.status).toBe(200);
    await drain(runId);
    const { url } = (await views(t.worker, { kind: "run", run_id: runId })).json;
    const page = await get(pathOf(url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("content-security-policy")).not.toContain("script-src");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.text.startsWith("<!doctype html>")).toBe(true);
    expect(page.text).not.toContain("<script");
    expect(page.text).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt; &amp; &quot;quotes&quot;");
    expect(page.text).toContain(runId);
    expect(page.text).toContain("pt-a");
    expect(page.text).toContain("610 in · 120 out");
    expect(page.text).toContain("worker-pt-a"); // the agent: the lease holder's subject
    expect(page.text).toContain("schema_invalid");
    expect(page.text).toContain("approver-pt-a"); // who decided the gate
    expect(page.text).toMatch(/id="gate-gate_[0-9a-f]+"/); // the anchor a Slack card links to
    expect(page.text).toContain('data-outcome="approved"');
    expect(page.text).toContain("via api");
    expect(page.text).toContain("&lt;b&gt;ok&lt;/b&gt; retry"); // its note, escaped
    expect(page.text).toContain('data-chart="steps"');
    // live run: the page refreshes itself
    expect(page.text).toMatch(/<meta http-equiv="refresh" content="\d+"/);
    // the stricter re-prompt passes and cites a memory: the run ends, the page stops refreshing
    const l2 = (
      await call("POST", `/v1/runs/${runId}/orders/${orderId}/lease`, { token: t.worker, body: { worker_id: "w2" } })
    ).json;
    const done = await complete(t.worker, runId, orderId, {
      lease_id: l2.lease_id,
      epoch: l2.epoch,
      op_id: "op-2",
      outcome: "PASS",
      tokens_in: 300,
      tokens_out: 50,
      output: { extracted_fields: {}, used_mem_ids: ["team/pt-a/org/sop/extract.v1"] },
    });
    expect(done.json.next).toBe("complete");
    const ended = await get(pathOf(url));
    expect(ended.text).toContain("team/pt-a/org/sop/extract.v1");
    expect(ended.text).toContain("COMPLETE");
    expect(ended.text).not.toContain('http-equiv="refresh"');
  });

  it("shows the policy decision's rule id and a dead letter with its reason and next action; no refresh once ended", async () => {
    const t = await teamTokens("pt-b");
    const { runId, orderId, lease: l } = await leasedOrder(t.worker);
    const res = await complete(t.worker, runId, orderId, {
      lease_id: l.lease_id,
      epoch: 1,
      op_id: "op-w",
      outcome: "DECLINE",
      failure_class: "wrong_value",
    });
    expect(res.json.next).toBe("dead_letter");
    const { url } = (await views(t.worker, { kind: "run", run_id: runId })).json;
    const page = await get(pathOf(url));
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="dead-letters"');
    expect(page.text).toContain("wrong_value");
    expect(page.text).toContain("reissue");
    expect(page.text).toContain(`data-field="rule_id">${res.json.decision.rule_id}<`);
    expect(page.text).not.toContain('http-equiv="refresh"');
  });

  it("counts down to a soft gate's auto-approval and a live lease's expiry, absolute times to the second", async () => {
    const t = await teamTokens("pt-clock");
    const { runId } = await leasedOrder(t.worker, "o1");
    const gate = await call("POST", `/v1/runs/${runId}/gates`, {
      token: t.worker,
      body: { policy_key: "schema_invalid", op_id: "op-soft", context: {} },
    });
    expect(gate.json).toMatchObject({ kind: "soft", status: "pending" });
    // (the run object's clock runs ahead in tests, so "in" is all the countdown's size can be relied on)
    const { url } = (await views(t.worker, { kind: "run", run_id: runId })).json;
    const html = (await get(pathOf(url))).text;
    expect(html).toMatch(
      /data-field="countdown"> · auto-approves in \d+[smhd]( \d+[smh])? \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)</,
    );
    expect(html).toMatch(/data-field="lease-expiry">lease expires in \d+[smhd]( \d+[smh])?</);
    expect(html).not.toMatch(/\d\d:\d\d:\d\d\.\d{3}Z/);
  });

  it("shows the budget by the one definition: a sum over the per-step caps is not a breach; a refused step is", async () => {
    const t = await teamTokens("pt-budget");
    const run = await startRun(t.worker);
    const budgetCard = async () => {
      const { url } = (await views(t.worker, { kind: "run", run_id: run.run_id })).json;
      const html = (await get(pathOf(url))).text;
      return {
        cls: /<b data-field="budget"( class="bad")?>/.exec(html)?.[1] ?? "",
        standing: /data-field="budget-standing">([^<]*)</.exec(html)?.[1] ?? "",
      };
    };
    // three steps of 150-170 output tokens each: 470 out in total, each step within the 200-token per-step cap
    for (const [i, out] of [150, 150, 170].entries()) {
      await addOrder(t.worker, run.run_id, `o${i}`);
      const l = (await lease(t.worker, run.run_id, `o${i}`)).json;
      const done = await complete(t.worker, run.run_id, `o${i}`, {
        lease_id: l.lease_id,
        epoch: l.epoch,
        op_id: `op${i}`,
        outcome: "PASS",
        tokens_in: 100,
        tokens_out: out,
      });
      expect(done.status).toBe(200);
    }
    expect(await budgetCard()).toEqual({
      cls: "",
      standing: "770 tokens (300 in · 470 out) · per step ≤ 800 in, ≤ 200 out · within budget",
    });
    // one step over the per-step output cap: Warden refuses it, and now the budget is breached everywhere
    await addOrder(t.worker, run.run_id, "big");
    const l = (await lease(t.worker, run.run_id, "big")).json;
    await complete(t.worker, run.run_id, "big", {
      lease_id: l.lease_id,
      epoch: l.epoch,
      op_id: "op-big",
      outcome: "PASS",
      tokens_in: 10,
      tokens_out: 250,
    });
    const after = await budgetCard();
    expect(after.cls).toBe(' class="bad"');
    expect(after.standing).toMatch(/· 1 step refused over budget$/);
    const view = await call("GET", `/v1/runs/${run.run_id}`, { token: t.worker });
    expect(view.json.budget).toMatchObject({ breaches: 1, used: { tokens_out: 720 } });
  });

  it("answers a plain 401 page for a missing, tampered, expired, other-run or team token, with no run data", async () => {
    const t = await teamTokens("pt-c");
    const run = await startRun(t.worker, { goal: "secret goal of pt-c" });
    const other = await startRun(t.worker, { goal: "the other run" });
    const secret = env.WARDEN_JWT_SECRET;
    const now = Date.now();
    const good = (await mintViewToken(secret, { kind: "run", team_id: "pt-c", run_id: run.run_id }, now)).token;
    const cases = [
      "",
      `${good.slice(0, -2)}AA`,
      (await mintViewToken(secret, { kind: "run", team_id: "pt-c", run_id: run.run_id }, now - 16 * 60_000)).token,
      (await mintViewToken(secret, { kind: "run", team_id: "pt-c", run_id: other.run_id }, now)).token,
      (await mintViewToken(secret, { kind: "team", team_id: "pt-c" }, now)).token,
      (await mintViewToken(secret, { kind: "run", team_id: "someone-else", run_id: run.run_id }, now)).token,
      (await mintViewToken(`${secret}-other`, { kind: "run", team_id: "pt-c", run_id: run.run_id }, now)).token,
    ];
    for (const view of cases) {
      const page = await get(`https://warden.test/runs/${run.run_id}/trace?view=${encodeURIComponent(view)}`);
      expect(page.status).toBe(401);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.text).not.toContain("secret goal");
    }
    expect((await get(`https://warden.test/runs/${run.run_id}/trace?view=${good}`)).status).toBe(200);
    expect((await get(`https://warden.test/runs/${run.run_id}/trace`)).status).toBe(401);
  });

  it("answers 401 for a valid token whose run does not exist, and a plain 404 page for an overlong run id", async () => {
    const tok = (
      await mintViewToken(env.WARDEN_JWT_SECRET, { kind: "run", team_id: "pt-d", run_id: "run_gone" }, Date.now())
    ).token;
    const page = await get(`https://warden.test/runs/run_gone/trace?view=${tok}`);
    expect(page.status).toBe(401);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const long = await get(`https://warden.test/runs/${"r".repeat(200)}/trace?view=${tok}`);
    expect(long.status).toBe(404);
    expect(long.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

describe("GET /teams/:team_id/overview", () => {
  const now = Date.now();
  const H = 3_600_000;

  /** one team's runs, gates, dead letter, approvals, mode and rollback, through their owning stores */
  async function seed(team: string) {
    const seeds = recordSeeds(env.DB);
    const run_id = `run-${team}`;
    await seeds.records([
      runOp({
        run_id,
        team_id: team,
        goal: "<img src=x onerror=alert(1)> goal",
        status: "RUNNING",
        created_at: now - 3 * H,
        updated_at: now - H,
      }),
      {
        t: "order",
        row: {
          order_id: "o1",
          run_id,
          team_id: team,
          task_id: "extractor",
          goal: "g",
          status: "COMPLETE",
          body: { cost_budget_tokens: 1000 },
          skill: null,
          created_at: now - 3 * H,
          updated_at: now - H,
        },
      },
      ...[0, 1, 2, 3].map((i) =>
        attemptOp({
          attempt_id: `a${i}-${team}`,
          run_id,
          order_id: "o1",
          op_id: `op${i}`,
          outcome: i === 3 ? "DECLINE" : "PASS",
          failure_class: i === 3 ? "budget_exceeded" : null,
          next: i === 3 ? "dead_letter" : "complete",
          tokens_in: 100,
          tokens_out: 20,
          started_at: now - (i + 1) * DAY - 1000 * (i + 1),
          ended_at: now - (i + 1) * DAY,
        }),
      ),
      deadLetterOp({
        id: `dl-${team}`,
        team_id: team,
        run_id,
        op_id: "op3",
        reason_code: "wrong_value",
        created_at: now - 4 * DAY,
      }),
      legacyApprovalOp({
        id: `ap-${team}`,
        team_id: team,
        run_id,
        op_id: "op9",
        gate_id: `g-done-${team}`,
        policy_key: "budget_increase",
        decision: "allow",
        approver: "alice",
        created_at: now - 6 * H + 4000,
      }),
      legacyApprovalOp({
        id: `ap2-${team}`,
        team_id: team,
        run_id,
        op_id: "op8",
        gate_id: `g-auto-${team}`,
        policy_key: "schema_invalid",
        decision: "auto_allow",
        approver: "timer",
        created_at: now - 2 * H,
      }),
      {
        t: "audit",
        row: {
          id: `au-${team}`,
          team_id: team,
          actor: "sweep",
          action: "policy.rollback",
          subject_type: "team",
          subject_id: team,
          metadata: { trigger_id: "escalation_rate_24h", from: "enforce", to: "observe" },
          created_at: now - 2 * DAY,
        },
      },
    ]);
    const gate = { teamId: team, runId: run_id, kind: "hard" };
    await seeds.gateMetrics([
      { ...gate, gateId: `g-new-${team}`, policyKey: "wrong_value", openedAt: now - H },
      { ...gate, gateId: `g-old-${team}`, policyKey: "pii_detected", openedAt: now - 5 * H },
      {
        ...gate,
        gateId: `g-done-${team}`,
        policyKey: "budget_increase",
        openedAt: now - 6 * H,
        decidedAt: now - 6 * H + 4000,
        decision: "allow",
        decidedBy: "alice",
        latencyMs: 4000,
      },
    ]);
    await seeds.modeCeiling(team, "observe", "rollback", now - 2 * DAY);
  }
  const DAY = 86_400_000;

  it("renders runs, open gates oldest first, dead letters, spend vs budget, approvals, SLOs and the mode", async () => {
    await seed("po-a");
    await seed("po-other");
    const t = await teamTokens("po-a");
    const { url } = (await views(t.worker, { kind: "team" })).json;
    const page = await get(pathOf(url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = page.text;
    expect(html).toContain("run-po-a");
    expect(html).not.toContain("run-po-other");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; goal");
    // open gates: the older one first, the decided one not listed
    expect(html.indexOf("g-old-po-a")).toBeGreaterThan(0);
    expect(html.indexOf("g-old-po-a")).toBeLessThan(html.indexOf("g-new-po-a"));
    expect(html).not.toContain("g-done-po-a");
    expect(html).toContain("Open gates (2)");
    expect(html).toContain("Unresolved dead letters (1)");
    expect(html).toContain("wrong_value");
    // spend: 4 attempts × 120 tokens; one of them went over budget, so the run's budget is breached (not "480 > x")
    expect(html).toMatch(
      /<td class="bad">480<\/td><td data-field="budget">1 refused over budget<span class="muted"> · order caps 1000<\/span><\/td>/,
    );
    // approvals: 1 auto, 1 human with 4 s latency
    expect(html).toContain("1 auto · 1 human");
    expect(html).toContain("4000 ms");
    // SLOs: 3 of 4 attempts passed, 1 dead letter per 4 attempts
    expect(html).toMatch(/data-field="success_rate"[^>]*>75\.0 %/);
    expect(html).toContain("25.0 %");
    expect(html.match(/data-chart="sparkline"/g)?.length).toBe(3);
    // each SLO sparkline is the whole 7-day series (a bar per day, days without data faint), never a lone dot
    for (const svg of html.match(/<svg[^>]*data-chart="sparkline".*?<\/svg>/gs) ?? []) {
      expect(svg.match(/data-day="\d"/g)?.length).toBe(7);
      expect(svg).not.toContain("<circle");
    }
    expect(html).toMatch(/<rect[^>]*fill-opacity="0.7"[^>]*><title>(today|\dd ago): \d+\.\d %<\/title>/);
    // not a dead end: the run, each open gate and the dead letter link into the run's trace; sections are linked
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((h) => (h[1] as string).replaceAll("&amp;", "&"));
    const traceLink = (anchor: string) =>
      hrefs.find((h) => new RegExp(`^/runs/run-po-a/trace\\?view=[\\w.-]+${anchor}$`).test(h));
    for (const anchor of ["", "#gate-g-old-po-a", "#gate-g-new-po-a", "#dead-letters"])
      expect(traceLink(anchor), anchor).toBeDefined();
    const token = new URL(traceLink("") as string, "https://warden.test").searchParams.get("view") as string;
    expect(await verifyViewToken(env.WARDEN_JWT_SECRET, token, Date.now())).toMatchObject({
      ok: true,
      value: { kind: "run", team_id: "po-a", run_id: "run-po-a" },
    });
    for (const section of ["#runs-section", "#open-gates-section", "#dead-letters-section"]) {
      expect(hrefs).toContain(section);
      expect(html).toContain(`id="${section.slice(1)}"`);
    }
    expect(html).toMatch(/data-field="mode">observe/);
    expect(html).toContain("enforce → observe (escalation_rate_24h)");
  });

  it("shows token spend per persona: the persona_id of the token that held each attempt's lease", async () => {
    const t = await teamTokens("pp-a");
    const extractor = await token("pp-a", undefined, { sub: "agent-x", personaId: "extractor" });
    const verifier = await token("pp-a", undefined, { sub: "agent-v", personaId: "verifier" });
    const run = await startRun(t.worker);
    const spend: [string, string, number, number][] = [
      [extractor, "o1", 100, 10],
      [extractor, "o2", 50, 5],
      [verifier, "o3", 7, 3],
      [t.worker, "o4", 1, 1],
    ];
    for (const [tok, orderId, tokensIn, tokensOut] of spend) {
      await call("POST", `/v1/runs/${run.run_id}/orders`, {
        token: t.worker,
        body: {
          order_id: orderId,
          task_id: `task-${orderId}`,
          goal: "g",
          input_json: {},
          output_schema_id: "o.v1",
          timeout_sec: 30,
        },
      });
      const l = await call("POST", `/v1/runs/${run.run_id}/orders/${orderId}/lease`, {
        token: tok,
        body: { worker_id: "w" },
      });
      const done = await complete(tok, run.run_id, orderId, {
        lease_id: l.json.lease_id,
        epoch: l.json.epoch,
        op_id: `op-${orderId}`,
        outcome: "PASS",
        tokens_in: tokensIn,
        tokens_out: tokensOut,
      });
      expect(done.status, done.text).toBe(200);
    }
    await drain(run.run_id);
    const { url } = (await views(t.worker, { kind: "team" })).json;
    const html = (await get(pathOf(url))).text;
    const row = (persona: string) => html.match(new RegExp(`<tr data-persona="${persona}">(.*?)</tr>`, "s"))?.[1] ?? "";
    expect(row("extractor")).toMatch(/<td>150<\/td><td>15<\/td>/);
    expect(row("verifier")).toMatch(/<td>7<\/td><td>3<\/td>/);
    expect(row("")).toMatch(/no persona_id.*<td>1<\/td><td>1<\/td>/s);
    // the run's link on the overview opens its trace page
    const runRow = html.match(new RegExp(`<tr data-run="${run.run_id}">(.*?)</tr>`, "s"))?.[1] ?? "";
    const href = /href="([^"]+)"/.exec(runRow)?.[1]?.replaceAll("&amp;", "&") as string;
    const trace = await get(`https://warden.test${href}`);
    expect([trace.status, trace.text.includes(run.run_id)]).toEqual([200, true]);
  });

  it("renders an empty team without failing", async () => {
    const tok = (await mintViewToken(env.WARDEN_JWT_SECRET, { kind: "team", team_id: "po-empty" }, Date.now())).token;
    const page = await get(`https://warden.test/teams/po-empty/overview?view=${tok}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("No runs yet.");
    expect(page.text).toContain("no rollback");
  });

  it("answers a plain 401 page for another team's token, a run token, an expired or a missing token", async () => {
    await seed("po-b");
    const s = env.WARDEN_JWT_SECRET;
    const cases = [
      (await mintViewToken(s, { kind: "team", team_id: "po-c" }, now)).token,
      (await mintViewToken(s, { kind: "run", team_id: "po-b", run_id: "run-po-b" }, now)).token,
      (await mintViewToken(s, { kind: "team", team_id: "po-b" }, now - 15 * 60_000 - 1)).token,
      "",
      "not-a-token",
    ];
    for (const view of cases) {
      const page = await get(`https://warden.test/teams/po-b/overview?view=${encodeURIComponent(view)}`);
      expect(page.status).toBe(401);
      expect(page.text).not.toContain("run-po-b");
    }
  });
});
