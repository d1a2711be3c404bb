// `warden dead-letters list|show|reissue|discard`: the real process against the real local server, bulk included.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { readDevVars } from "../scripts/dev-vars.mjs";
import { createApi, mintToken, unwrap } from "../src/client/index.ts";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../test/node-server/local-server.ts";
import { runWarden } from "./warden-process.ts";

const root = join(import.meta.dirname, "..");
const noLogin = mkdtempSync(join(tmpdir(), "warden-dl-xdg-"));
const files = mkdtempSync(join(tmpdir(), "warden-dl-files-"));
const warden = (args: string[], env: Record<string, string | undefined>) =>
  runWarden(args, { XDG_CONFIG_HOME: noLogin, ...env }, root);

type DeadLettered = { order_id: string; dead_letter_id: string; gate_id?: string };

describe("warden dead-letters against the real local server", () => {
  const url = sharedServerUrl();
  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);
  afterAll(() => {
    rmSync(files, { recursive: true, force: true });
    rmSync(noLogin, { recursive: true, force: true });
  });
  const env = (team: string) => ({ WARDEN_URL: url, WARDEN_TEAM: team, WARDEN_SUB: "reviewer" });

  async function workerApi(team: string) {
    const secret = (readDevVars(join(root, ".dev.vars")) as { WARDEN_JWT_SECRET: string }).WARDEN_JWT_SECRET;
    const token = await mintToken({ secret, teamId: team, sub: "worker", scopes: ["runs:read", "runs:write"] });
    return createApi({ baseUrl: url, token });
  }

  /** A run whose `n` orders each failed once: with wrong_value (a review each), or with no class (no review). */
  async function deadLetters(team: string, n: number, failureClass: "wrong_value" | null = "wrong_value") {
    const a = await workerApi(team);
    const { run_id } = await unwrap(a.v1.runs.$post({ json: { goal: "extract invoices" } }));
    const fail = async (i: number): Promise<DeadLettered> => {
      const order_id = `o${i}`;
      const json = {
        order_id,
        task_id: `t${i}`,
        goal: `extract invoice ${i}`,
        input_json: { invoice: `INV-${i}`, total: 120, currency: "EUR" },
        output_schema_id: "out.v1",
        timeout_sec: 60,
      };
      await unwrap(a.v1.runs[":run_id"].orders.$post({ param: { run_id }, json }));
      const param = { run_id, order_id };
      const l = await unwrap(a.v1.runs[":run_id"].orders[":order_id"].lease.$post({ param, json: { worker_id: "w" } }));
      const done = await unwrap(
        a.v1.runs[":run_id"].orders[":order_id"].complete.$post({
          param,
          json: {
            lease_id: l.lease_id,
            epoch: l.epoch,
            op_id: `op-${i}`,
            outcome: "ERROR",
            ...(failureClass ? { failure_class: failureClass } : {}),
            output: { total: 210, schema_guard: "total is not the sum of the lines" },
          } as never,
        }),
      );
      expect(done.next).toBe("dead_letter");
      return { order_id, ...(done as { dead_letter_id: string; gate_id?: string }) };
    };
    const made: DeadLettered[] = [];
    for (let i = 0; i < n; i += 8)
      made.push(...(await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, k) => fail(i + k)))));
    // the D1 record follows the run object by a few milliseconds
    for (let tries = 0; tries < 100; tries++) {
      const listed = await unwrap(a.v1["dead-letters"].$get({ query: { run_id, status: "all", limit: "500" } }));
      if (listed.dead_letters.length >= n) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return { a, run_id, made };
  }

  it("list (JSON and --pretty ≤ 100 columns), show with the evidence, reissue one with a corrected input", async () => {
    const team = "t-cli-dl-one";
    const { a, run_id, made } = await deadLetters(team, 2);
    const list = await warden(["dead-letters", "list", "--reason", "wrong_value", "--since", "1h"], env(team));
    expect(list.code, list.stderr).toBe(0);
    expect(list.json.dead_letters.map((d: { order_id: string }) => d.order_id).sort()).toEqual(["o0", "o1"]);
    const prettyList = await warden(["--pretty", "dead-letters", "list"], env(team));
    expect(prettyList.code, prettyList.stderr).toBe(0);
    expect(prettyList.stdout).toContain(made[0]?.dead_letter_id);
    for (const line of prettyList.stdout.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(100);
    expect((await warden(["dead-letters", "list", "--since", "2099-01-01"], env(team))).json.dead_letters).toEqual([]);

    const target = made.find((m) => m.order_id === "o0") as DeadLettered;
    const show = await warden(["dead-letters", "show", target.dead_letter_id], env(team));
    expect(show.code, show.stderr).toBe(0);
    expect(show.json.review).toMatchObject({
      gate_id: target.gate_id,
      status: "pending",
      context: { reason: "total is not the sum of the lines", input: { invoice: "INV-0", total: 120 } },
    });

    const patch = join(files, "patch.json");
    writeFileSync(patch, JSON.stringify({ total: 210, currency: null }));
    const args = ["dead-letters", "reissue", target.dead_letter_id, "--note", "lines re-checked", "--patch", patch];
    const r = await warden(args, env(team));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      dead_letter_id: target.dead_letter_id,
      result: "reissued",
      gate_id: target.gate_id,
    });
    const order = (await unwrap(a.v1.runs[":run_id"].$get({ param: { run_id } }))).orders.find(
      (o) => o.order_id === "o0",
    );
    expect(order).toMatchObject({ status: "QUEUED", reissued: true, reviewed_by: "reviewer" });
    const l = await unwrap(
      a.v1.runs[":run_id"].orders[":order_id"].lease.$post({
        param: { run_id, order_id: "o0" },
        json: { worker_id: "w" },
      }),
    );
    expect((l as { order: { input_json: unknown } }).order.input_json).toEqual({ invoice: "INV-0", total: 210 });
    // again: already resolved, nothing reissued twice (exit 4, said so)
    const again = await warden(args, env(team));
    expect(again.code).toBe(4);
    expect(again.json).toMatchObject({ result: "already_resolved" });
  });

  it("refuses a bad patch at the server (exit 4, nothing changed) and bad flags with exit 2", async () => {
    const team = "t-cli-dl-bad";
    const { made } = await deadLetters(team, 1);
    const id = (made[0] as DeadLettered).dead_letter_id;
    const secret = join(files, "secret.json");
    writeFileSync(secret, JSON.stringify({ note: "key sk_live_4eC39HqLyjWDarjtT1zdp7dc" }));
    const refused = await warden(["dead-letters", "reissue", id, "--note", "x", "--patch", secret], env(team));
    expect(refused.code).toBe(4);
    expect(refused.json).toMatchObject({ result: "failed", error: expect.stringContaining("422") });
    const notObject = join(files, "array.json");
    writeFileSync(notObject, "[1]");
    const usage: string[][] = [
      ["dead-letters", "reissue", id, "--note", "x", "--patch", notObject],
      ["dead-letters", "reissue", id, "--all", "--note", "x"],
      ["dead-letters", "reissue", "--note", "x"],
      ["dead-letters", "reissue", id],
      ["dead-letters", "discard", "--all", "--note", "x", "--patch", notObject],
      ["dead-letters", "list", "--since", "yesterday"],
      ["dead-letters", "list", "--status", "maybe"],
    ];
    for (const args of usage) expect((await warden(args, env(team))).code, args.join(" ")).toBe(2);
    const still = await warden(["dead-letters", "show", id], env(team));
    expect(still.json).toMatchObject({ resolved_at: null, review: { status: "pending" } });
  });

  it("bulk reissue over 51 dead letters: refused without --yes when stdin is not a terminal, then each reissued once", async () => {
    const team = "t-cli-dl-bulk";
    const { a, run_id } = await deadLetters(team, 51);
    const args = ["dead-letters", "reissue", "--reason", "wrong_value", "--since", "1h", "--note", "supplier fixed"];
    const unconfirmed = await warden(args, env(team));
    expect(unconfirmed.code).toBe(2);
    expect(JSON.parse(unconfirmed.stderr).error.message).toMatch(/reissue 51 dead letter.*--yes/);
    expect((await warden(["dead-letters", "list"], env(team))).json.dead_letters).toHaveLength(51);

    const r = await warden([...args, "--yes"], env(team));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "reissue", matched: 51, failed: 0 });
    const ids = r.json.results.map((x: { dead_letter_id: string }) => x.dead_letter_id);
    expect(new Set(ids).size).toBe(51);
    expect(r.json.results.every((x: { result: string }) => x.result === "reissued")).toBe(true);
    const view = await unwrap(a.v1.runs[":run_id"].$get({ param: { run_id } }));
    expect(view.orders.filter((o) => o.status === "QUEUED" && o.reissued)).toHaveLength(51);
    expect(view.dead_letters.every((d) => d.resolved_at !== null)).toBe(true);
    // a second bulk finds nothing open: nothing is reissued twice
    const second = await warden([...args, "--yes"], env(team));
    expect(second.json).toMatchObject({ matched: 0, results: [] });
  });

  it("discard skips a reviewed dead letter; without a review, reissue opens a dead_letter_reissue gate and discard fails", async () => {
    const team = "t-cli-dl-discard";
    const reviewed = await deadLetters(team, 1);
    const id = (reviewed.made[0] as DeadLettered).dead_letter_id;
    const d = await warden(["dead-letters", "discard", id, "--note", "duplicate invoice"], env(team));
    expect(d.code, d.stderr).toBe(0);
    expect(d.json.result).toBe("discarded");
    const run = await unwrap(reviewed.a.v1.runs[":run_id"].$get({ param: { run_id: reviewed.run_id } }));
    expect(run.orders[0]?.status).toBe("SKIPPED");

    const plain = await deadLetters(team, 1, null);
    const plainId = (plain.made[0] as DeadLettered).dead_letter_id;
    const refused = await warden(["dead-letters", "discard", plainId, "--note", "x"], env(team));
    expect(refused.code).toBe(4);
    expect(refused.json.error).toMatch(/no pending review gate/);
    const reissued = await warden(["dead-letters", "reissue", plainId, "--note", "transient"], env(team));
    expect(reissued.code, reissued.stderr).toBe(0);
    expect(reissued.json).toMatchObject({ result: "gate_opened", gate_id: expect.any(String) });
    const gate = await unwrap(
      plain.a.v1.runs[":run_id"].gates[":gate_id"].$get({
        param: { run_id: plain.run_id, gate_id: reissued.json.gate_id },
      }),
    );
    expect(gate).toMatchObject({ policy_key: "dead_letter_reissue", kind: "soft", status: "pending" });
  });
});
