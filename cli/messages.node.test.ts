// `warden runs say` and `warden runs messages` against the shared local server: post, read after a cursor, refusals.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../test/node-server/local-server.ts";
import { runWarden } from "./warden-process.ts";

const root = join(import.meta.dirname, "..");
const noLogin = mkdtempSync(join(tmpdir(), "warden-cli-msg-xdg-"));
const url = sharedServerUrl();
const env = (team = "t-cli-msg") => ({ XDG_CONFIG_HOME: noLogin, WARDEN_URL: url, WARDEN_TEAM: team });
const warden = (args: string[], team?: string) => runWarden(args, env(team), root);

beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);

describe("warden runs say / messages", () => {
  it("posts messages and reads them after a cursor; a secret exits 4, another team's run exits 4", async () => {
    const runId = (await warden(["runs", "start", "--goal", "talk over the CLI"])).json.run_id as string;
    const first = await warden(["runs", "say", runId, "--text", "first answer", "--op-id", "a-1"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ run_id: runId, text: "first answer", author_kind: "worker" });
    const second = await warden(["runs", "say", runId, "--text", "second answer"]);
    const all = await warden(["runs", "messages", runId]);
    expect(all.json.messages.map((m: { text: string }) => m.text)).toEqual(["first answer", "second answer"]);
    const newer = await warden(["runs", "messages", runId, "--after", String(first.json.seq)]);
    expect(newer.json).toEqual({ messages: [second.json], next_after: second.json.seq });
    const secret = await warden(["runs", "say", runId, "--text", "key AKIAIOSFODNN7EXAMPLQ"]);
    expect(secret.code).toBe(4);
    expect(secret.stderr).not.toContain("AKIA");
    expect((await warden(["runs", "messages", runId], "t-cli-msg-other")).code).toBe(4);
  });
});
