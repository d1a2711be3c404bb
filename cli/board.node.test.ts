// `warden runs new --graph`, `warden board` and `warden personas list|set`: the real process against the real local server.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../test/node-server/local-server.ts";
import { workItem } from "../test/work-item.ts";
import { runWarden } from "./warden-process.ts";

const root = join(import.meta.dirname, "..");
const noLogin = mkdtempSync(join(tmpdir(), "warden-board-xdg-"));
const files = mkdtempSync(join(tmpdir(), "warden-board-files-"));
const warden = (args: string[], env: Record<string, string | undefined>) =>
  runWarden(args, { XDG_CONFIG_HOME: noLogin, ...env }, root);

const file = (name: string, body: unknown) => {
  const path = join(files, name);
  writeFileSync(path, typeof body === "string" ? body : JSON.stringify(body));
  return path;
};

describe("warden board commands against the real local server", () => {
  const url = sharedServerUrl();
  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);
  afterAll(() => {
    rmSync(files, { recursive: true, force: true });
    rmSync(noLogin, { recursive: true, force: true });
  });
  const env = (team: string) => ({ WARDEN_URL: url, WARDEN_TEAM: team });

  it("runs new --graph starts a run from {goal, items} or from an item array with --goal; the roots are ready", async () => {
    const team = env("t-cli-graph");
    const graph = file("graph.json", {
      goal: "Health: extract and verify",
      items: [workItem("extract", [], { persona_id: "extractor" }), workItem("verify", ["extract"])],
    });
    const r = await warden(["runs", "new", "--graph", graph], team);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.items).toEqual([
      { item_id: "extract", state: "ready" },
      { item_id: "verify", state: "waiting" },
    ]);
    const status = await warden(["runs", "status", r.json.run_id], team);
    expect(status.json.goal).toBe("Health: extract and verify");
    expect(status.json.items.map((i: { item_id: string; depends_on: string[] }) => [i.item_id, i.depends_on])).toEqual([
      ["extract", []],
      ["verify", ["extract"]],
    ]);
    const array = file("items.json", [workItem("only")]);
    const fromArray = await warden(["runs", "new", "--graph", array, "--goal", "one item"], team);
    expect(fromArray.code, fromArray.stderr).toBe(0);
    expect(fromArray.json.items).toEqual([{ item_id: "only", state: "ready" }]);
  });

  it("runs new --graph refuses a cycle (exit 4, the cycle named), a file without a goal or items (exit 2); nothing starts", async () => {
    const team = env("t-cli-graph-bad");
    const before = (await warden(["runs", "list"], team)).json.runs.length;
    const cycle = file("cycle.json", {
      goal: "loops",
      items: [workItem("a", ["c"]), workItem("b", ["a"]), workItem("c", ["b"])],
    });
    const r = await warden(["runs", "new", "--graph", cycle], team);
    expect(r.code).toBe(4);
    const err = JSON.parse(r.stderr).error;
    expect(err.code).toBe("validation_failed");
    expect(JSON.stringify(err.details)).toMatch(/dependency cycle: a → c → b → a|a → b → c → a/);
    const noGoal = await warden(["runs", "new", "--graph", file("nogoal.json", [workItem("a")])], team);
    expect(noGoal.code).toBe(2);
    expect(JSON.parse(noGoal.stderr).error.message).toContain("--goal");
    expect((await warden(["runs", "new", "--graph", file("empty.json", { goal: "x", items: [] })], team)).code).toBe(2);
    expect((await warden(["runs", "new", "--graph", file("broken.json", "{nope")], team)).code).toBe(2);
    expect((await warden(["runs", "new", "--graph", join(files, "missing.json")], team)).code).toBe(2);
    expect((await warden(["runs", "list"], team)).json.runs.length).toBe(before);
  });

  it("personas set creates, then changes only the flags given; list shows it; bad flags exit 2, a reader exits 3", async () => {
    const team = env("t-cli-personas");
    const created = await warden(
      ["personas", "set", "extractor", "--name", "Extractor", "--role", "extract", "--limit", "1"],
      team,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toEqual({
      persona_id: "extractor",
      name: "Extractor",
      role: "extract",
      concurrency_limit: 1,
      enabled: true,
    });
    const disabled = await warden(["personas", "set", "extractor", "--disabled"], team);
    expect(disabled.json).toEqual({ ...created.json, enabled: false });
    const raised = await warden(["personas", "set", "extractor", "--limit", "3", "--enabled"], team);
    expect(raised.json).toEqual({ ...created.json, concurrency_limit: 3 });
    const fresh = await warden(["personas", "set", "cpu"], team);
    expect(fresh.json).toEqual({ persona_id: "cpu", name: "cpu", role: "", concurrency_limit: 1, enabled: true });
    const listed = await warden(["personas", "list"], team);
    expect(listed.json.personas).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ persona_id: "extractor", concurrency_limit: 3, registered: true, leased: 0 }),
        expect.objectContaining({ persona_id: "cpu", registered: true }),
      ]),
    );
    expect((await warden(["personas", "set", "cpu", "--enabled", "--disabled"], team)).code).toBe(2);
    expect((await warden(["personas", "set", "cpu", "--limit", "0"], team)).code).toBe(2);
    expect((await warden(["personas", "set", "cpu", "--limit", "two"], team)).code).toBe(2);
    const reader = await warden(["token", "mint", "--team-id", "t-cli-personas", "--scopes", "runs:read"], {});
    const refused = await warden(["personas", "set", "cpu", "--limit", "9"], {
      WARDEN_URL: url,
      WARDEN_TOKEN: reader.stdout.trim(),
    });
    expect(refused.code).toBe(3);
    expect(
      (await warden(["personas", "list"], team)).json.personas.find(
        (p: { persona_id: string }) => p.persona_id === "cpu",
      ).concurrency_limit,
    ).toBe(1);
  });

  it("board prints one row per persona within 100 columns; --json gives the board with the personas", async () => {
    const team = env("t-cli-board");
    await warden(["personas", "set", "extractor", "--limit", "1", "--disabled"], team);
    const graph = file("board.json", {
      goal: "board rows",
      items: [
        workItem("e1", [], { persona_id: "extractor", priority: 9 }),
        workItem("e2", [], { persona_id: "extractor" }),
        workItem("free", []),
        workItem("after", ["free"]),
      ],
    });
    expect((await warden(["runs", "new", "--graph", graph], team)).code).toBe(0);
    const json = await warden(["board", "--json"], team);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json).toMatchObject({ ready: 3, leased: 0, waiting: 1, backpressure: { on: false } });
    expect(json.json.personas).toEqual([
      expect.objectContaining({ persona_id: "extractor", ready: 2, enabled: false }),
    ]);
    const text = await warden(["board"], team);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("board: 3 ready, 0 leased, 1 waiting");
    expect(lines.find((l) => l.startsWith("extractor"))?.split(/\s{2,}/)).toEqual([
      "extractor",
      "1",
      "NO",
      "0",
      "2",
      "0",
      expect.stringMatching(/^\d+s$/),
      "9:1 5:1",
    ]);
    expect(
      lines
        .find((l) => l.startsWith("(any)"))
        ?.split(/\s{2,}/)
        .slice(3, 6),
    ).toEqual(["0", "1", "1"]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
  });
});
