// The real `warden` process against a real local server (`npm start`), and against a loopback server for the
// second-wave routes that live on other branches (POST /v1/views, GET /v1/gates, POST /v1/gates/:id/decision, GET /v1/runs).
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { createServer as netServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHealthDag } from "../demo/driver.ts";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { readDevVars } from "../scripts/dev-vars.mjs";
import { createApi, mintToken, pendingCalls, rawFetcher, unwrap } from "../src/client/index.ts";

const root = join(import.meta.dirname, "..");
const bin = join(root, "cli/warden.mjs");

type Result = { code: number; stdout: string; stderr: string; json: any };
function warden(args: string[], env: Record<string, string | undefined> = {}, cwd = root): Promise<Result> {
  return new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      WARDEN_TOKEN: undefined,
      WARDEN_AGENT_ID: undefined,
      WARDEN_MEMORY: undefined,
    };
    for (const [k, v] of Object.entries(env)) childEnv[k] = v;
    execFile(process.execPath, [bin, ...args], { cwd, env: childEnv, encoding: "utf8" }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code: typeof code === "number" ? code : 1, stdout, stderr, json });
    });
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = netServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

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
      const r = await warden(["runs", "status", "run_x"], {}, dir);
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stderr).error.message).toMatch(/no token/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

describe("warden against the second-wave routes (loopback server answering their DESIGN.md §5 contract)", () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method: string; path: string; auth?: string; body: unknown }> = [];
  const read = (req: IncomingMessage) =>
    new Promise<unknown>((resolve) => {
      let s = "";
      req.on("data", (c) => {
        s += c;
      });
      req.on("end", () => resolve(s ? JSON.parse(s) : undefined));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = await read(req);
      seen.push({ method: req.method as string, path: req.url as string, auth: req.headers.authorization, body });
      const send = (status: number, b?: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(b === undefined ? undefined : JSON.stringify(b));
      };
      if (req.headers.authorization !== "Bearer good")
        return send(401, { error: { code: "unauthorized", message: "bad token", request_id: "r" } });
      if (req.method === "POST" && req.url === "/v1/views") {
        const b = body as { kind: string; run_id?: string };
        const target = b.kind === "run" ? `runs/${b.run_id}/trace` : "teams/team-a/overview";
        return send(201, { url: `${url}/${target}?view=signed`, expires_at: "2026-11-23T22:00:00.000Z" });
      }
      if (req.method === "GET" && req.url === "/v1/gates?status=open")
        return send(200, {
          gates: [{ gate_id: "g1", run_id: "r1", op_id: "op1", policy_key: "wrong_value", kind: "hard", age_ms: 5000 }],
        });
      if (req.method === "POST" && req.url === "/v1/gates/g1/decision") {
        const b = body as { decision: string; note?: string };
        if (b.note === undefined)
          return send(422, { error: { code: "rejected", message: "a hard gate needs a note", request_id: "r" } });
        return send(200, { gate_id: "g1", status: b.decision === "deny" ? "denied" : "approved", decided_by: "ops" });
      }
      if (req.method === "GET" && req.url?.startsWith("/v1/runs"))
        return send(200, { runs: [{ run_id: "r1", status: "RUNNING" }], next_cursor: null });
      send(404, { error: { code: "not_found", message: "no route", request_id: "r" } });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  const env = () => ({ WARDEN_URL: url, WARDEN_TOKEN: "good" });

  it("runs trace-url posts {kind:run, run_id} to /v1/views and prints the signed URL", async () => {
    const r = await warden(["runs", "trace-url", "run_42"], env());
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ url: `${url}/runs/run_42/trace?view=signed`, expires_at: "2026-11-23T22:00:00.000Z" });
    expect(seen.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/views",
      auth: "Bearer good",
      body: { kind: "run", run_id: "run_42" },
    });
  });

  it("overview-url posts {kind:team}", async () => {
    const r = await warden(["overview-url"], env());
    expect(r.json.url).toContain("/teams/team-a/overview?view=");
    expect(seen.at(-1)?.body).toEqual({ kind: "team" });
  });

  it("gates list prints the open gates, and --pretty renders a table", async () => {
    expect((await warden(["gates", "list"], env())).json.gates[0]).toMatchObject({ gate_id: "g1", kind: "hard" });
    const pretty = await warden(["--pretty", "gates", "list"], env());
    expect(pretty.stdout.split("\n")[0]).toMatch(/^gate_id\s+run_id\s+op_id\s+policy_key\s+kind\s+age_ms$/);
    expect(pretty.stdout).toContain("wrong_value");
  });

  it("gates approve/deny send {decision, note}; a refused decision exits 4; a bad token exits 3", async () => {
    const a = await warden(["gates", "approve", "g1", "--note", "checked by hand"], env());
    expect(a.json.status).toBe("approved");
    expect(seen.at(-1)).toMatchObject({
      path: "/v1/gates/g1/decision",
      body: { decision: "approve_retry", note: "checked by hand" },
    });
    const d = await warden(["gates", "deny", "g1", "--note", "no"], env());
    expect(d.json.status).toBe("denied");
    expect(seen.at(-1)?.body).toEqual({ decision: "deny", note: "no" });
    const refused = await warden(["gates", "deny", "g1"], env());
    expect(refused.code).toBe(4);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ status: 422, code: "rejected" });
    expect((await warden(["gates", "list"], { WARDEN_URL: url, WARDEN_TOKEN: "bad" })).code).toBe(3);
  });

  it("the client's pending calls answer 404 as a value, not a throw, when a route is missing", async () => {
    const p = pendingCalls(rawFetcher(url, "good"));
    expect((await p.leaseNext({ worker_id: "w" })).status).toBe(404);
    expect((await p.listRuns({ status: "RUNNING" })).body.runs[0]?.run_id).toBe("r1");
    expect(seen.at(-1)?.path).toBe("/v1/runs?status=RUNNING");
  });
});

describe("warden against the real local server (npm start)", () => {
  let child: ChildProcess;
  let url: string;
  const persist = mkdtempSync(join(tmpdir(), "warden-cli-start-"));
  const env = (extra: Record<string, string> = {}) => ({ WARDEN_URL: url, WARDEN_TEAM: "t-cli-e2e", ...extra });

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn("npm", ["start", "--", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persist], {
      cwd: root,
      stdio: "ignore",
      detached: true,
    });
    const deadline = Date.now() + 150_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) return;
      } catch {}
      if (Date.now() > deadline) throw new Error("npm start did not serve /healthz within 150 s");
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 180_000);

  afterAll(() => {
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {}
    rmSync(persist, { recursive: true, force: true });
  });

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
    const s = await runHealthDag({ baseUrl: url, teamId, workerToken: worker, approverToken: approver });
    expect(s).toMatchObject({ documents: 14, passed: 13, reprompts: 1, status: "DEAD_LETTER" });
    expect(s.gates).toEqual([expect.objectContaining({ doc_id: "hard-note-2001", policy_key: "schema_invalid" })]);
    expect(s.dead_letters).toEqual([
      expect.objectContaining({ doc_id: "hard-euro-2002", failure_class: "wrong_value" }),
    ]);
    expect(s.used_mem_ids.length).toBeGreaterThan(0);
    // The server's own record agrees: one dead letter for that order, and the gate approved by the other identity.
    const view = await unwrap(
      createApi({ baseUrl: url, token: worker }).v1.runs[":run_id"].$get({ param: { run_id: s.run_id } }),
    );
    expect(view.dead_letters.map((d) => d.order_id)).toEqual(["extract-hard-euro-2002"]);
    const exit = await unwrap(
      createApi({ baseUrl: url, token: worker }).v1.runs[":run_id"]["explain-exit"].$get({
        param: { run_id: s.run_id },
      }),
    );
    expect(exit.gates.map((g: { policy_key: string; status: string }) => [g.policy_key, g.status])).toEqual([
      ["schema_invalid", "approved"],
    ]);
  });
});
