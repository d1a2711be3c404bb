// `warden` against a real local server (`npm start`), every command on the real routes: in-process (runCli), and the
// real `node cli/warden.mjs` process once for the bin itself.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHealthDag } from "../demo/driver.ts";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { readDevVars } from "../scripts/dev-vars.mjs";
import { createApi, mintToken, unwrap } from "../src/client/index.ts";
import {
  freePort,
  SHARED_SERVER_WAIT_MS,
  sharedServerReady,
  sharedServerUrl,
} from "../test/node-server/local-server.ts";
import { runWarden, runWardenProcess } from "./warden-process.ts";

const root = join(import.meta.dirname, "..");
const noLogin = mkdtempSync(join(tmpdir(), "warden-cli-xdg-"));

// a developer's own `warden login` must not change what these tests see
const warden = (args: string[], env: Record<string, string | undefined> = {}, cwd = root) =>
  runWarden(args, { XDG_CONFIG_HOME: noLogin, ...env }, cwd);

describe("warden (no server needed)", () => {
  it("documents the exit codes in --help", async () => {
    const r = await warden(["--help"]);
    expect(r.code).toBe(0);
    for (const line of ["2  usage", "3  auth", "4  refused input", "5  server unavailable"])
      expect(r.stdout).toContain(line);
  });

  it("exits 2 on an unknown command, a malformed integer flag or a bad choice", async () => {
    expect((await warden(["frobnicate"])).code).toBe(2);
    expect((await warden(["policy", "decide", "--attempt", "two"], { WARDEN_TOKEN: "x" })).code).toBe(2);
    expect((await warden(["policy", "decide", "--memrl-mode", "yolo"], { WARDEN_TOKEN: "x" })).code).toBe(2);
  });

  it("exits 3 when there is no token and no .dev.vars to mint one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "warden-cli-"));
    try {
      const r = await warden(["runs", "status", "run_x"], { WARDEN_URL: "http://127.0.0.1:9" }, dir);
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stderr).error.message).toMatch(/no token/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never defaults silently: no server (exit 2, says how), no team for a .dev.vars token (exit 2, says how)", async () => {
    const noServer = await warden(["runs", "status", "run_x"], { WARDEN_URL: undefined, WARDEN_TEAM: "t" });
    expect(noServer.code).toBe(2);
    expect(JSON.parse(noServer.stderr).error.message).toMatch(/--url .*WARDEN_URL.*warden login/);
    const noTeam = await warden(["runs", "status", "run_x"], {
      WARDEN_URL: "http://127.0.0.1:9",
      WARDEN_TEAM: undefined,
    });
    expect(noTeam.code).toBe(2);
    expect(JSON.parse(noTeam.stderr).error.message).toMatch(/--team .*WARDEN_TEAM/);
  });

  it("--verbose says which server, team and credentials a command used", async () => {
    const port = await freePort();
    const r = await warden(["--verbose", "runs", "status", "run_x"], {
      WARDEN_URL: `http://127.0.0.1:${port}`,
      WARDEN_TEAM: "t-cli-verbose",
    });
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stderr.split("\n")[0] as string)).toEqual({
      server: `http://127.0.0.1:${port}`,
      server_from: "WARDEN_URL",
      team: "t-cli-verbose",
      credentials: "./.dev.vars",
    });
  });

  it("exits 5 when the server is unreachable", async () => {
    const port = await freePort();
    const r = await warden(["runs", "status", "run_x"], { WARDEN_URL: `http://127.0.0.1:${port}`, WARDEN_TOKEN: "t" });
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stderr).error.code).toBe("unavailable");
  });

  it("memory activate with WARDEN_MEMORY=0 opts out without calling the server", async () => {
    const port = await freePort();
    const r = await warden(["memory", "activate", "--json"], {
      WARDEN_MEMORY: "0",
      WARDEN_AGENT_ID: "codex",
      WARDEN_URL: `http://127.0.0.1:${port}`,
      WARDEN_TOKEN: "t",
    });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ disabled: true, session_kind: "warden.agent.codex", hints: [] });
  });

  it("token mint signs with .dev.vars' secret, the asked scopes and a lifetime ≤ 900 s; refuses unknown scopes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "warden-mint-"));
    try {
      const secret = "ab".repeat(32);
      writeFileSync(join(dir, ".dev.vars"), `WARDEN_JWT_SECRET=${secret}\n`);
      const r = await warden(
        [
          "token",
          "mint",
          "--team-id",
          "t-mint",
          "--scopes",
          "runs:read,memory:read",
          "--sub",
          "ops",
          "--ttl",
          "600",
          "--json",
        ],
        {},
        dir,
      );
      expect(r.code).toBe(0);
      const { payload } = await jwtVerify(r.json.token, new TextEncoder().encode(secret), {
        issuer: "warden",
        audience: "warden",
      });
      expect(payload).toMatchObject({ team_id: "t-mint", scopes: ["runs:read", "memory:read"], sub: "ops" });
      expect((payload.exp as number) - (payload.iat as number)).toBe(600);
      expect((await warden(["token", "mint", "--team-id", "t", "--scopes", "root:all"], {}, dir)).code).toBe(2);
      expect((await warden(["token", "mint", "--team-id", "t", "--ttl", "901"], {}, dir)).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the warden bin (node cli/warden.mjs, a real process)", () => {
  const url = sharedServerUrl();
  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);

  it("prints --help (exit 0), exits 2 on an unknown command, and runs a command from its env and cwd", async () => {
    const bin = (args: string[], env: Record<string, string | undefined> = {}) =>
      runWardenProcess(args, { XDG_CONFIG_HOME: noLogin, ...env }, root);
    // three processes at once: each pays Node's start-up, none waits for another
    const [help, unknown, decided] = await Promise.all([
      bin(["--help"]),
      bin(["frobnicate"]),
      // WARDEN_URL and WARDEN_TEAM from the process's env, the token minted from ./.dev.vars of its cwd
      bin(["policy", "decide", "--failure-class", "vibe_fail", "--attempt", "1"], {
        WARDEN_URL: url,
        WARDEN_TEAM: "t-cli-bin",
      }),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("5  server unavailable");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command");
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.json.decision_id).toBeTypeOf("string");
  });
});

describe("warden against the real local server (npm start)", () => {
  // the node-server project's shared server (test/node-server/); these tests use their own teams (t-cli-*)
  const url = sharedServerUrl();
  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);
  const persist = mkdtempSync(join(tmpdir(), "warden-cli-files-"));
  const env = (extra: Record<string, string> = {}) => ({ WARDEN_URL: url, WARDEN_TEAM: "t-cli-e2e", ...extra });

  afterAll(() => rmSync(persist, { recursive: true, force: true }));

  it("policy decide: flags mirror the JSON fields in kebab case", async () => {
    const r = await warden(
      [
        "policy",
        "decide",
        "--memrl-mode",
        "enforce",
        "--failure-class",
        "vibe_fail",
        "--attempt",
        "1",
        "--max-attempts",
        "3",
      ],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      failure_class: "vibe_fail",
      attempt_bucket: "initial",
      rule_id: expect.stringMatching(/vibe_fail\.initial$/),
    });
    expect(r.json.decision_id).toBeTypeOf("string");
  });

  it("runs start → status → explain-exit → stop, and a foreign run is refused with exit 4", async () => {
    const started = await warden(
      [
        "runs",
        "start",
        "--goal",
        "Health: Extract & Verify",
        "--skills",
        "extract,verify",
        "--budget-input-tokens",
        "800",
      ],
      env(),
    );
    expect(started.code).toBe(0);
    const runId = started.json.run_id as string;
    expect(runId).toBeTruthy();
    const status = await warden(["runs", "status", runId], env());
    expect(status.json).toMatchObject({ run_id: runId, status: "PENDING" });
    expect((await warden(["runs", "explain-exit", runId], env())).code).toBe(0);
    const stopped = await warden(["runs", "stop", runId, "--reason", "test over"], env());
    expect(stopped.json).toMatchObject({ run_id: runId, status: "STOPPED" });
    expect((await warden(["runs", "status", runId], env({ WARDEN_TEAM: "t-other" }))).code).toBe(4);
  });

  it("memory write, query, a refused secret (exit 4), import from a file", async () => {
    const ns = "team/t-cli-e2e/org/runbooks";
    const w = await warden(
      [
        "memory",
        "write",
        "--namespace",
        ns,
        "--class",
        "kb",
        "--text",
        "Invoices use commas as thousands separators.",
        "--tags",
        "invoice",
      ],
      env(),
    );
    expect(w.code).toBe(0);
    expect(w.json.id).toBeTruthy();
    const q = await warden(
      ["memory", "query", "--namespaces", ns, "--text", "invoice separators", "--top-k", "3"],
      env(),
    );
    expect(q.json.results.map((x: { id: string }) => x.id)).toContain(w.json.id);
    const secret = await warden(
      [
        "memory",
        "write",
        "--namespace",
        ns,
        "--class",
        "kb",
        "--text",
        "db password postgres://admin:hunter2@db.internal:5432/prod",
      ],
      env(),
    );
    expect(secret.code).toBe(4);
    expect(secret.stderr).not.toContain("hunter2");
    const dir = mkdtempSync(join(tmpdir(), "warden-import-"));
    const file = join(dir, "charter.json");
    writeFileSync(
      file,
      JSON.stringify({
        namespace: "team/t-cli-e2e/org/charter",
        kind: "charter",
        entries: [{ text: "Never deploy on Fridays." }, { text: "Two approvers for policy changes." }],
      }),
    );
    const imp = await warden(["memory", "import", file], env());
    rmSync(dir, { recursive: true, force: true });
    expect(imp.json).toMatchObject({ imported: 2 });
  });

  it("memory activate --json: WARDEN_AGENT_ID picks the session kind, --outcome records the episode, which the next activation sees", async () => {
    const first = await warden(
      [
        "memory",
        "activate",
        "--json",
        "--need",
        "rotate keys",
        "--outcome",
        "resolved",
        "--route-id",
        "route.rotate.v1",
      ],
      env({ WARDEN_AGENT_ID: "claude" }),
    );
    expect(first.code).toBe(0);
    expect(first.json.session_kind).toBe("warden.agent.claude");
    expect(first.json.recorded.id).toBeTruthy();
    const again = await warden(["memory", "activate", "--json"], env({ WARDEN_AGENT_ID: "claude" }));
    expect(again.json.recent_episodes.map((e: { route_id: string }) => e.route_id)).toContain("route.rotate.v1");
    const operator = await warden(["memory", "activate", "--json"], env());
    expect(operator.json.session_kind).toBe("warden.operator");
  });

  it("sessions record and events send are accepted; policy show, replay and deploy work from profile files", async () => {
    expect(
      (
        await warden(
          [
            "sessions",
            "record",
            "--command",
            "warden route",
            "--outcome",
            "escalated",
            "--need",
            "db failover",
            "--route-id",
            "route.db.v2",
          ],
          env(),
        )
      ).code,
    ).toBe(0);
    // one session, two episodes: the route tried failed for the route, the fallback resolved
    const episode = (i: number, route: string, outcome: string, extra: string[]) =>
      warden(
        ["sessions", "record", "--command", "warden route", "--need", "db failover", "--session-id", "sess-two"].concat(
          ["--route-id", route, "--outcome", outcome, "--episode-index", String(i), ...extra],
        ),
        env(),
      );
    const tried = await episode(0, "route.db.v2", "escalated", ["--failure-cause", "route"]);
    expect(tried.code, tried.stderr).toBe(0);
    expect((await episode(1, "route.db.v3", "resolved", ["--route-source", "reasoned"])).code).toBe(0);
    const causeOnResolved = await episode(2, "route.db.v3", "resolved", ["--failure-cause", "environment"]);
    expect(causeOnResolved.code).toBe(4);
    expect(JSON.parse(causeOnResolved.stderr).error.message).toContain("failure_cause");
    const ev = await warden(
      [
        "events",
        "send",
        "--type",
        "task.failed",
        "--run-id",
        "run_ext_1",
        "--task-id",
        "task_1",
        "--skill",
        "extract",
        "--reason",
        "schema_invalid",
      ],
      env(),
    );
    expect(ev.code).toBe(0);
    const noTask = await warden(["events", "send", "--type", "task.failed", "--run-id", "run_ext_1"], env());
    expect(noTask.code).toBe(4);
    expect(JSON.parse(noTask.stderr).error.code).toBe("validation_failed");
    const shown = await warden(["policy", "show"], env());
    expect(shown.json.rules.length).toBeGreaterThan(0);
    const profile = join(root, "contracts/memrl-policy.profile.example.json");
    const replay = await warden(["policy", "replay", profile], env());
    expect(replay.json).toMatchObject({ total: expect.any(Number), changed: expect.any(Number) });
    const deploy = await warden(["policy", "deploy", profile], env());
    expect(deploy.json).toMatchObject({ status: "pending", gate_id: expect.any(String) });
    const invalid = join(persist, "bad-profile.json");
    writeFileSync(invalid, JSON.stringify({ ...JSON.parse(readFileSync(profile, "utf8")), default_mode: "yolo" }));
    expect((await warden(["policy", "deploy", invalid], env())).code).toBe(4);
  });

  it("runs trace-url and overview-url print signed view URLs that load (200) without a bearer token", async () => {
    const started = await warden(["runs", "start", "--goal", "trace me"], env());
    const runId = started.json.run_id as string;
    const trace = await warden(["runs", "trace-url", runId], env());
    expect(trace.code).toBe(0);
    expect(trace.json.url).toMatch(new RegExp(`^${url}/runs/${runId}/trace\\?view=`));
    expect(Date.parse(trace.json.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const page = await fetch(trace.json.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("trace me");
    const overview = await warden(["overview-url"], env());
    expect(overview.json.url).toMatch(new RegExp(`^${url}/teams/t-cli-e2e/overview\\?view=`));
    expect((await fetch(overview.json.url)).status).toBe(200);
    expect((await fetch(trace.json.url.replace(/view=.*/, "view=forged"))).status).toBe(401);
    expect((await warden(["runs", "trace-url", "run_nope"], env())).code).toBe(4);
    const list = await warden(["runs", "list"], env());
    expect(list.json.runs.map((r: { run_id: string }) => r.run_id)).toContain(runId);
  });

  it("gates list shows an open hard gate; approve/deny need --note, and the opener cannot decide its own gate", async () => {
    const team = { WARDEN_TEAM: "t-cli-gates" };
    const approver = { ...team, WARDEN_SUB: "ops-approver" };
    const profile = join(root, "contracts/memrl-policy.profile.example.json");
    const openGate = async () => {
      const deploy = await warden(["policy", "deploy", profile], env(team));
      expect(deploy.json).toMatchObject({ status: "pending", gate_id: expect.any(String) });
      const gateId = deploy.json.gate_id as string;
      // the D1 gate index is written just after the gate opens
      for (let i = 0; i < 40; i++) {
        const listed = await warden(["gates", "list"], env(team));
        expect(listed.code).toBe(0);
        const g = listed.json.gates.find((x: { gate_id: string }) => x.gate_id === gateId);
        if (g) return g as { gate_id: string; run_id: string; kind: string; policy_key: string };
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`gate ${gateId} never listed`);
    };
    const g1 = await openGate();
    expect(g1).toMatchObject({ kind: "hard", policy_key: "policy_deploy" });
    const pretty = await warden(["--pretty", "gates", "list"], env(team));
    expect(pretty.stdout).toContain(g1.gate_id);
    expect(Math.max(...pretty.stdout.split("\n").map((l) => l.length))).toBeLessThanOrEqual(100);
    // acknowledging is not deciding: the gate stays open, the acknowledgement is answered again when repeated
    const acked = await warden(["gates", "ack", g1.gate_id], env(approver));
    expect(acked.code, acked.stderr).toBe(0);
    expect(acked.json).toMatchObject({ gate_id: g1.gate_id, status: "pending", acked_by: "ops-approver" });
    expect((await warden(["gates", "ack", g1.gate_id], env(team))).json.acked_by).toBe("ops-approver");
    // a policy_deploy gate is sev2: decided within 60 minutes of opening (the seed's default)
    const left = acked.json.resolve_due_at - acked.json.acked_at;
    expect(left > 0 && left <= 3_600_000).toBe(true);
    const sla = await warden(["gates", "sla"], env(approver));
    expect(sla.code, sla.stderr).toBe(0);
    expect(sla.json).toMatchObject({ source: "default", settings: { ack_minutes: { business: 5, off_hours: 30 } } });
    const noNote = await warden(["gates", "approve", g1.gate_id], env(approver));
    expect(noNote.code).toBe(4);
    // the opener (the CLI's default subject) is refused: 403, exit 3
    expect((await warden(["gates", "approve", g1.gate_id, "--note", "mine"], env(team))).code).toBe(3);
    const approved = await warden(["gates", "approve", g1.gate_id, "--note", "diff reviewed"], env(approver));
    expect(approved.code).toBe(0);
    expect(approved.json.status).toBe("approved");
    // the CLI sends X-Warden-Channel: cli, so the decision is recorded as made in the CLI, also in the run's view
    expect(approved.json).toMatchObject({ outcome: "approved", channel: "cli" });
    const view = await warden(["runs", "status", g1.run_id], env(approver));
    expect(view.code, view.stderr).toBe(0);
    const inView = view.json.gates.find((x: { gate_id: string }) => x.gate_id === g1.gate_id);
    expect(inView).toMatchObject({ outcome: "approved", channel: "cli", decided_by: "ops-approver" });
    const g2 = await openGate();
    expect((await warden(["gates", "deny", g2.gate_id], env(approver))).code).toBe(4);
    const denied = await warden(["gates", "deny", g2.gate_id, "--note", "not this week"], env(approver));
    expect(denied.code).toBe(0);
    expect(denied.json.status).toBe("denied");
    // decisions are idempotent (the HTTP contract): the same decision again answers the decided gate
    const again = await warden(["gates", "deny", g2.gate_id, "--note", "again"], env(approver));
    expect(again.code).toBe(0);
    expect(again.json.status).toBe("denied");
    expect((await warden(["gates", "list"], { WARDEN_URL: url, WARDEN_TOKEN: "bad" })).code).toBe(3);
  });

  it("slack override calls POST /v1/slack/outage/override: a team without an outage is refused (exit 4), --reason is required", async () => {
    const team = { WARDEN_TEAM: "t-cli-outage" };
    const r = await warden(["slack", "override", "--reason", "INC-42", "--ttl-minutes", "30"], env(team));
    expect(r.code, r.stderr).toBe(4);
    const err = JSON.parse(r.stderr).error;
    expect(err).toMatchObject({ status: 409, code: "conflict" });
    expect(err.message).toContain("no approval outage");
    expect((await warden(["slack", "override"], env(team))).code).toBe(2);
    expect((await warden(["slack", "override", "--reason", "x", "--ttl-minutes", "soon"], env(team))).code).toBe(2);
  });

  it("a token that lacks the scope exits 3", async () => {
    const minted = await warden(["token", "mint", "--team-id", "t-cli-e2e", "--scopes", "memory:read"]);
    const r = await warden(["runs", "start", "--goal", "x"], { WARDEN_URL: url, WARDEN_TOKEN: minted.stdout.trim() });
    expect(r.code).toBe(3);
  });

  it("npm run demo's driver: the golden set passes, schema_invalid is gated and re-prompted once, wrong_value is dead-lettered", async () => {
    const secret = (readDevVars(join(root, ".dev.vars")) as { WARDEN_JWT_SECRET: string }).WARDEN_JWT_SECRET;
    const teamId = "t-cli-demo";
    const worker = await mintToken({
      secret,
      teamId,
      sub: "orchestrator",
      scopes: ["runs:read", "runs:write", "memory:read", "memory:write", "events:write"],
    });
    const approver = await mintToken({ secret, teamId, sub: "approver", scopes: ["runs:read", "approvals:decide"] });
    const admin = await mintToken({ secret, teamId, sub: "admin", scopes: ["policy:admin", "runs:read"] });
    const s = await runHealthDag({
      baseUrl: url,
      teamId,
      workerToken: worker,
      approverToken: approver,
      adminToken: admin,
      // idle workers and the approver ask again sooner than the demo's gentle default: the same run, less waiting
      idleMs: 100,
    });
    expect(s).toMatchObject({ documents: 14, items: 28, passed: 13, reprompts: 1, status: "DEAD_LETTER" });
    // three workers pulled; the caps held: never two extractions at once (limit 1), never three cpu steps (limit 2)
    expect(s.max_in_flight).toEqual({ extractor: 1, cpu: expect.any(Number) });
    expect(s.max_in_flight.cpu).toBeGreaterThanOrEqual(1);
    expect(s.max_in_flight.cpu).toBeLessThanOrEqual(2);
    // the wrong value's first review is approved once: the reissued extraction ran within the extractor's cap of 1
    // (asserted above) and failed again, its second review left to a person
    expect(s.gates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ doc_id: "hard-note-2001", policy_key: "schema_invalid" }),
        expect.objectContaining({ doc_id: "hard-euro-2002", policy_key: "dead_letter_review" }),
      ]),
    );
    expect(s.gates).toHaveLength(2);
    expect(s.dead_letters).toEqual([
      expect.objectContaining({ doc_id: "hard-euro-2002", failure_class: "wrong_value" }),
    ]);
    expect(s.used_mem_ids.length).toBeGreaterThan(0);
    expect(s.trace_url).toContain(`/runs/${s.run_id}/trace?view=`);
    for (const link of [s.trace_url, s.overview_url]) expect((await fetch(link as string)).status).toBe(200);
    // The server's own record agrees: one dead letter for that order, and the gate approved by the other identity.
    const view = await unwrap(
      createApi({ baseUrl: url, token: worker }).v1.runs[":run_id"].$get({ param: { run_id: s.run_id } }),
    );
    expect(view.dead_letters.map((d) => d.order_id)).toEqual(["extract-hard-euro-2002", "extract-hard-euro-2002"]);
    // the graph did the sequencing: the dead letter's persist was skipped, every other item passed
    const states = Object.fromEntries(view.items.map((i) => [i.item_id, i.state]));
    expect(states["persist-hard-euro-2002"]).toBe("skipped");
    expect(Object.values(states).filter((x) => x === "passed")).toHaveLength(26);
    const exit = await unwrap(
      createApi({ baseUrl: url, token: worker }).v1.runs[":run_id"]["explain-exit"].$get({
        param: { run_id: s.run_id },
      }),
    );
    // the wrong value's second review waits for a person (the demo's approver decides a document's first one only)
    expect(exit.gates.map((g: { policy_key: string; status: string }) => [g.policy_key, g.status]).sort()).toEqual([
      ["dead_letter_review", "approved"],
      ["dead_letter_review", "pending"],
      ["schema_invalid", "approved"],
    ]);
  });

  it("npm run demo prints a trace URL and an overview URL that load with 200", async () => {
    // beside it, checked last: WARDEN_DEMO_DOCS out of range is refused before anything is sent (exit 2, says the range)
    const refused = new Promise<{ code: number; stderr: string }>((resolve) => {
      const env = { ...process.env, WARDEN_URL: url, WARDEN_TEAM: "t-cli-npm-demo", WARDEN_DEMO_DOCS: "15" };
      execFile(process.execPath, ["demo/main.ts"], { cwd: root, env, encoding: "utf8" }, (err, _out, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    const r = await new Promise<{ code: number; stdout: string }>((resolve) => {
      // two documents, not fourteen: this test checks what `npm run demo` prints and that its links and hint work;
      // the whole golden set and its outcomes are the driver test's above (the same runHealthDag)
      const childEnv: NodeJS.ProcessEnv = {
        ...process.env,
        WARDEN_URL: url,
        WARDEN_TEAM: "t-cli-npm-demo",
        WARDEN_DEMO_DOCS: "2",
      };
      for (const k of ["WARDEN_TOKEN", "WARDEN_APPROVER_TOKEN", "OPENAI_API_KEY"]) delete childEnv[k];
      execFile("npm", ["run", "-s", "demo"], { cwd: root, env: childEnv, encoding: "utf8" }, (err, stdout) =>
        resolve({ code: err ? 1 : 0, stdout }),
      );
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s*documents\s+2 \(the first 2 of 14\)/m);
    const trace = /^\s*trace\s+(http\S+)$/m.exec(r.stdout)?.[1];
    const overview = /^\s*overview\s+(http\S+)$/m.exec(r.stdout)?.[1];
    expect(trace).toMatch(new RegExp(`^${url}/runs/run_[^/]+/trace\\?view=`));
    expect(overview).toMatch(new RegExp(`^${url}/teams/t-cli-npm-demo/overview\\?view=`));
    for (const link of [trace, overview]) {
      const page = await fetch(link as string);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
    }
    // the closing hint works as printed, in a shell with none of the caller's Warden settings and no saved login
    const hint = /^Try: (npx warden .+)$/m.exec(r.stdout)?.[1] as string;
    const runId = /\/runs\/(run_[^/]+)\/trace/.exec(trace as string)?.[1] as string;
    expect(hint).toContain(`runs explain-exit ${runId} --pretty`);
    const tried = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const clean: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: noLogin };
      for (const k of ["WARDEN_URL", "WARDEN_TEAM", "WARDEN_TOKEN"]) delete clean[k];
      execFile("sh", ["-c", hint], { cwd: root, env: clean, encoding: "utf8" }, (err, stdout) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
    expect(tried.code).toBe(0);
    expect(tried.stdout).toContain(runId);
    expect((await refused).code).toBe(2);
    expect((await refused).stderr).toContain("WARDEN_DEMO_DOCS must be a whole number from 1 to 14");
  });
});
