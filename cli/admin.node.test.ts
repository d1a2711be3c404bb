// `warden admin migrate-memory`: the real process against the real local server, and its refusal of another team's token.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { readDevVars } from "../scripts/dev-vars.mjs";
import { mintToken } from "../src/client/index.ts";
import { SHARED_SERVER_WAIT_MS, sharedServerReady, sharedServerUrl } from "../test/node-server/local-server.ts";
import { runWarden } from "./warden-process.ts";

const root = join(import.meta.dirname, "..");
const noLogin = mkdtempSync(join(tmpdir(), "warden-admin-xdg-"));
const warden = (args: string[], env: Record<string, string | undefined>) =>
  runWarden(args, { XDG_CONFIG_HOME: noLogin, ...env }, root);

describe("warden admin migrate-memory", () => {
  const url = sharedServerUrl();
  beforeAll(sharedServerReady, SHARED_SERVER_WAIT_MS);
  afterAll(() => rmSync(noLogin, { recursive: true, force: true }));

  it("loops the copy route until the team is switched, prints the last answer and exits 0", async () => {
    const team = `mig-cli-${crypto.randomUUID().slice(0, 8)}`;
    const r = await warden(["admin", "migrate-memory", "--team", team, "--batch", "50"], { WARDEN_URL: url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      copied: 0,
      total: 0,
      done: true,
      verified_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(r.stderr).toContain("] 0/0");
    const again = await warden(["admin", "migrate-memory", "--team", team], { WARDEN_URL: url });
    expect(again.code).toBe(0);
    expect(again.json).toEqual(r.json);
  });

  it("refuses a token of another team (exit 3) and a bad --batch (exit 2) before calling the server", async () => {
    const secret = (readDevVars(join(root, ".dev.vars")) as { WARDEN_JWT_SECRET: string }).WARDEN_JWT_SECRET;
    const other = await mintToken({ secret, teamId: "team-other", sub: "admin", scopes: ["policy:admin"] });
    const refused = await warden(["admin", "migrate-memory", "--team", "team-mine"], {
      WARDEN_URL: url,
      WARDEN_TOKEN: other,
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("team-other");
    expect(refused.stdout).toBe("");
    const bad = await warden(["admin", "migrate-memory", "--team", "team-mine", "--batch", "501"], { WARDEN_URL: url });
    expect(bad.code).toBe(2);
  });
});
